import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config';
import { currentContext } from './observability/context';
import { swappable } from './observability/swappable';

type Level = 'debug' | 'info' | 'warn' | 'error';
export type Threshold = Level | 'silent';
const order: Record<Threshold, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** One log line before it is written: level, message, time, the work's context, then the call's own fields. */
export interface LogRecord {
  /** Upper case, as Powertools writes it on AWS. */
  level: Uppercase<Level>;
  message: string;
  timestamp: string;
  [field: string]: unknown;
}

/** Where lines go instead of the function's own JSON logs (the local runtime keeps and shows them). */
export interface LogSink {
  level: Threshold;
  write: (record: LogRecord) => void;
}

const sinks = swappable<LogSink>();
let powertools: Logger | undefined;

/** Routes every line to `next` (or back to the function's JSON logs when undefined); returns the undo. */
export const useLogSink = sinks.use;

/** On AWS: Powertools' JSON lines (service, X-Ray trace id) on stdout, which Lambda sends to CloudWatch Logs. */
const lambdaLogger = (): Logger =>
  (powertools ??= new Logger({ serviceName: 'parley', logLevel: config().LOG_LEVEL.toUpperCase() as 'INFO' }));

const serialise = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

const write = (level: Level, message: string, fields: Record<string, unknown> = {}): void => {
  const sink = sinks.get();
  const threshold = sink ? sink.level : config().LOG_LEVEL;
  if (order[level] < order[threshold]) return;
  const own = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, serialise(v)]));
  if (sink)
    sink.write({
      level: level.toUpperCase() as Uppercase<Level>,
      message,
      timestamp: new Date().toISOString(),
      ...currentContext(),
      ...own,
    });
  else lambdaLogger()[level](message, { ...currentContext(), ...own });
};

/** Structured logs, one line each, carrying the context of the work in hand. Callers pass ids, never tokens, secrets, content or raw headers. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
