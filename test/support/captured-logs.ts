import { afterEach, beforeEach } from 'vitest';
import { useLogSink, type LogRecord } from '../../shared/log';

/** Every record logged during each test, at every level; the array is emptied before each test. */
export const useCapturedLogs = (): LogRecord[] => {
  const logs: LogRecord[] = [];
  let undo: () => void = () => undefined;
  beforeEach(() => {
    logs.length = 0;
    undo = useLogSink({ level: 'debug', write: (r) => logs.push(r) });
  });
  afterEach(() => undo());
  return logs;
};
