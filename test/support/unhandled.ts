import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogSink } from '../../shared/log';

/** Where test processes leave the errors behind their 500s, for the run's closing summary. */
export const UNHANDLED_DIR_ENV = 'PARLEY_UNHANDLED_DIR';

/** The log lines the summary collects, each under its own heading. */
const COLLECTED = {
  'unhandled error': { file: 'unhandled', heading: 'unhandled errors (500s)' },
  'slow invocation': { file: 'slow', heading: 'slow invocations (over half their timeout, with their slowest AWS calls)' },
} as const;

/**
 * A 500 is a defect, even in a run whose LOG_LEVEL is silent: the error behind it goes to stderr, which
 * vitest prints with the test, and to the run's summary, printed last, so a failing run says why even
 * where only the end of its output is kept. Invocations that came near their timeout are kept beside
 * them, with where their time went. A test's own log sink takes over while it runs.
 */
export const unhandledErrors: LogSink = {
  level: 'warn',
  write: (record) => {
    const collected = COLLECTED[record.message as keyof typeof COLLECTED];
    if (!collected) return;
    const line = `${JSON.stringify(record)}\n`;
    if (collected.file === 'unhandled') process.stderr.write(line);
    const dir = process.env[UNHANDLED_DIR_ENV];
    if (dir) appendFileSync(join(dir, `${process.pid}.${collected.file}.jsonl`), line);
  },
};

/** How many shown in the summary, and how much of each. */
const SHOWN = 5;
const SHOWN_CHARS = 1500;

const section = (dir: string, { file, heading }: (typeof COLLECTED)[keyof typeof COLLECTED]): string => {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(`.${file}.jsonl`)) : [];
  const lines = files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
  if (lines.length === 0) return `${heading}: none\n`;
  const shown = lines.slice(0, SHOWN).map((l) => `  ${l.slice(0, SHOWN_CHARS)}`);
  return `${heading}: ${lines.length}, the first ${shown.length}:\n${shown.join('\n')}\n`;
};

export const unhandledSummary = (dir: string): string =>
  Object.values(COLLECTED)
    .map((c) => section(dir, c))
    .join('');
