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

/** Routes every line to `next` (or back to the function's JSON logs when undefined); returns the undo. */
export const useLogSink = sinks.use;

/** The invocation's X-Ray trace id, which Lambda sets per invocation: CloudWatch links a line to its trace by it. */
const traceId = () => /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];

/**
 * On AWS: one JSON line, which Lambda sends to CloudWatch Logs as is, in the shape and on the stream Powertools'
 * Logger writes (level, message, timestamp, service, xray_trace_id; WARN and ERROR on stderr, the rest on stdout),
 * without its 22 KB and its cold-start cost.
 */
const lambdaLine = ({ level, message, timestamp, ...fields }: LogRecord): void => {
  const stream = level === 'ERROR' || level === 'WARN' ? process.stderr : process.stdout;
  stream.write(`${JSON.stringify({ level, message, timestamp, service: 'parley', xray_trace_id: traceId(), ...fields })}\n`);
};

const serialise = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

/** A line's own fields, or a function that makes them: called only when the line is written (a debug line's, mostly). */
type Fields = Record<string, unknown> | (() => Record<string, unknown>);

const write = (level: Level, message: string, fields: Fields = {}): void => {
  const sink = sinks.get();
  const threshold = sink ? sink.level : config().LOG_LEVEL;
  if (order[level] < order[threshold]) return;
  const given = typeof fields === 'function' ? fields() : fields;
  const own = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, serialise(v)]));
  const record: LogRecord = {
    level: level.toUpperCase() as Uppercase<Level>,
    message,
    timestamp: new Date().toISOString(),
    ...currentContext(),
    ...own,
  };
  if (sink) sink.write(record);
  else lambdaLine(record);
};

/** Structured logs, one line each, carrying the context of the work in hand. Callers pass ids, never tokens, secrets, content or raw headers. */
export const log = {
  debug: (msg: string, fields?: Fields) => write('debug', msg, fields),
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
