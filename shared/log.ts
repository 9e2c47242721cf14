import { config } from './config';

type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const serialise = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

const write = (level: Level, msg: string, fields: Record<string, unknown> = {}): void => {
  if (order[level] < order[config().LOG_LEVEL]) return;
  const entry = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, serialise(v)]));
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...entry });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

/** Structured JSON logs, one line each. Callers never pass tokens, secrets or raw headers. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
