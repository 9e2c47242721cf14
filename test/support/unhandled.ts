import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Lines of a failed test's child process shown in the summary: its warnings and errors, then its last lines. */
const CHILD_PROBLEMS = 40;
const CHILD_LAST = 30;
const CHILD_LINE_CHARS = 400;

/**
 * Keeps what a failed test's child process (a crash test's `npm start`) wrote last for the run's summary:
 * vitest prints it with the test too, but a long run's output may be kept only from its end.
 */
export const keepChildOutput = (title: string, lines: readonly string[]): void => {
  const dir = process.env[UNHANDLED_DIR_ENV];
  if (!dir) return;
  const last = lines.slice(-CHILD_LAST);
  const problems = lines
    .slice(0, -CHILD_LAST)
    .filter((l) => /"level":"(warn|error)"/i.test(l))
    .slice(-CHILD_PROBLEMS);
  const shown = [...problems, ...(problems.length ? ['…'] : []), ...last].map((l) => `  ${l.slice(0, CHILD_LINE_CHARS)}`);
  writeFileSync(join(dir, `${process.pid}.${Date.now()}.child.txt`), `${title}\n${shown.join('\n')}\n`);
};

/** The contents of `dir`'s files whose names end with `suffix`, in name order. */
const contentsEnding = (dir: string, suffix: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(suffix))
        .sort()
        .map((f) => readFileSync(join(dir, f), 'utf8'))
    : [];

/** The children of failed tests, as kept; nothing when every test passed. */
const childOutput = (dir: string): string => contentsEnding(dir, '.child.txt').join('');

/** How many shown in the summary, and how much of each. */
const SHOWN = 5;
const SHOWN_CHARS = 1500;

type Collected = (typeof COLLECTED)[keyof typeof COLLECTED];

const records = (dir: string, { file }: Collected): Record<string, unknown>[] =>
  contentsEnding(dir, `.${file}.jsonl`)
    .flatMap((text) => text.split('\n').filter(Boolean))
    .map((l) => JSON.parse(l));

/** `shown` records each with the records that follow it (a 500's own slow record). */
const section = (heading: string, shown: Record<string, unknown>[][], total: number, which: string): string =>
  total === 0
    ? `${heading}: none\n`
    : `${heading}: ${total}, ${which} ${shown.length}:\n${shown
        .flat()
        .map((r) => `  ${JSON.stringify(r).slice(0, SHOWN_CHARS)}`)
        .join('\n')}\n`;

/**
 * The child processes of failed tests (their warnings and last lines), then the run's 500s, the first few each followed by its own invocation's slow record when it had one (where a
 * timeout's time went), then the slowest invocations.
 */
export const unhandledSummary = (dir: string): string => {
  const errors = records(dir, COLLECTED['unhandled error']);
  const slow = records(dir, COLLECTED['slow invocation']).sort((a, b) => Number(b.ms) - Number(a.ms));
  const shownErrors = errors.slice(0, SHOWN).map((e) => [e, ...slow.filter((s) => s.requestId && s.requestId === e.requestId)]);
  return (
    childOutput(dir) +
    section(COLLECTED['unhandled error'].heading, shownErrors, errors.length, 'the first') +
    section(
      COLLECTED['slow invocation'].heading,
      slow.slice(0, SHOWN).map((s) => [s]),
      slow.length,
      'the slowest',
    )
  );
};
