import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogSink } from '../../shared/log';

/** Where test processes leave the errors behind their 500s, for the run's closing summary. */
export const UNHANDLED_DIR_ENV = 'PARLEY_UNHANDLED_DIR';

/**
 * A 500 is a defect, even in a run whose LOG_LEVEL is silent: the error behind it goes to stderr, which
 * vitest prints with the test, and to the run's summary, printed last, so a failing run says why even
 * where only the end of its output is kept. A test's own log sink takes over while it runs.
 */
export const unhandledErrors: LogSink = {
  level: 'error',
  write: (record) => {
    if (record.message !== 'unhandled error') return;
    const line = `${JSON.stringify(record)}\n`;
    process.stderr.write(line);
    const dir = process.env[UNHANDLED_DIR_ENV];
    if (dir) appendFileSync(join(dir, `${process.pid}.jsonl`), line);
  },
};

/** How many shown in the summary, and how much of each. */
const SHOWN = 5;
const SHOWN_CHARS = 1500;

export const unhandledSummary = (dir: string): string => {
  const lines = existsSync(dir) ? readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)) : [];
  if (lines.length === 0) return 'unhandled errors (500s): none\n';
  const shown = lines.slice(0, SHOWN).map((l) => `  ${l.slice(0, SHOWN_CHARS)}`);
  return `unhandled errors (500s): ${lines.length}, the first ${shown.length}:\n${shown.join('\n')}\n`;
};
