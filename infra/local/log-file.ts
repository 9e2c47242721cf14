import { createWriteStream, existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LogRecord, LogSink, Threshold } from '../../shared/log';

/** Where `npm start` keeps its log lines (JSON, one a line) for `parley logs`; the previous file is kept beside it. */
const logFile = (dataDir: string): string => join(dataDir, 'logs.jsonl');
const MAX_BYTES = 50 * 1024 * 1024;

const FIRST = ['level', 'message', 'timestamp'];

/** A line for a person: time, level, message, the request's outline, then the rest as key=value. */
export const readable = (r: LogRecord): string => {
  const { level, message, timestamp, method: _method, route, status, durationMs, ...rest } = r;
  // A route template starts with its method.
  const outline = message === 'request' ? ` ${String(route)} → ${String(status)} ${String(durationMs)} ms` : '';
  const fields = Object.entries(rest)
    .filter(([k, v]) => !FIRST.includes(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${timestamp.slice(11, 23)} ${level.padEnd(5)} ${message}${outline}${fields ? `  ${fields}` : ''}`;
};

/**
 * The local runtime's log sink: every line goes to `<dataDir>/logs.jsonl`, and to the terminal as a
 * readable line (or as JSON when the output is piped, as on AWS).
 */
export const localLogSink = (opts: {
  dataDir: string;
  level: Threshold;
  out: NodeJS.WriteStream;
}): LogSink & { close: () => Promise<void> } => {
  const path = logFile(opts.dataDir);
  if (existsSync(path) && statSync(path).size > MAX_BYTES) renameSync(path, `${path}.1`);
  const file = createWriteStream(path, { flags: 'a' });
  return {
    level: opts.level,
    write: (record) => {
      const json = JSON.stringify(record);
      file.write(`${json}\n`);
      opts.out.write(`${opts.out.isTTY ? readable(record) : json}\n`);
    },
    close: () => new Promise((done) => file.end(done)),
  };
};

/** The lines of the log file (and of the one before it) that `matches` keeps, oldest first. */
export const readLogLines = (dataDir: string, matches: (r: LogRecord) => boolean): LogRecord[] =>
  [`${logFile(dataDir)}.1`, logFile(dataDir)]
    .filter((p) => existsSync(p))
    .flatMap((p) => readFileSync(p, 'utf8').split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogRecord)
    .filter(matches);

export type StoryKey = 'requestId' | 'eventId' | 'deliveryId';

/**
 * The lines about `id`, and about what it led to: a request's events and their deliveries, an event's
 * deliveries. Lines carry the request id wherever it travelled; the widening also finds work that lost it
 * (a delivery re-sent by the sweeper).
 */
export const storyOf = (records: readonly LogRecord[], key: StoryKey, id: string): LogRecord[] => {
  const wanted: Record<StoryKey, Set<string>> = { requestId: new Set(), eventId: new Set(), deliveryId: new Set() };
  wanted[key].add(id);
  const widen: StoryKey[] = key === 'requestId' ? ['eventId', 'deliveryId'] : key === 'eventId' ? ['deliveryId'] : [];
  const about = (r: LogRecord) => (Object.keys(wanted) as StoryKey[]).some((k) => typeof r[k] === 'string' && wanted[k].has(r[k]));
  for (const next of widen) for (const r of records) if (about(r) && typeof r[next] === 'string') wanted[next].add(r[next]);
  return records.filter(about);
};
