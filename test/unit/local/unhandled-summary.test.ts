import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { keepChildOutput, UNHANDLED_DIR_ENV, unhandledSummary } from '../../support/unhandled';

let dir: string | undefined;
afterEach(() => rmSync(dir!, { recursive: true, force: true }));

/** The records a section shows, below its heading. */
const shownRecords = (section: string) =>
  section
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { requestId: string; ms?: number });

const lines = (...records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

it("shows each 500 with its own invocation's slow record, then the slowest invocations first", () => {
  dir = mkdtempSync(join(tmpdir(), 'unhandled-'));
  writeFileSync(join(dir, '1.unhandled.jsonl'), lines({ message: 'unhandled error', requestId: 'r-timeout' }));
  writeFileSync(
    join(dir, '2.slow.jsonl'),
    lines(
      { message: 'slow invocation', requestId: 'r-other', ms: 16_000 },
      { message: 'slow invocation', requestId: 'r-timeout', ms: 30_001 },
      { message: 'slow invocation', requestId: 'r-third', ms: 17_000 },
    ),
  );
  const summary = unhandledSummary(dir);
  expect(summary).toMatch(/^unhandled errors \(500s\): 1, the first 1:\n/);
  expect(summary).toMatch(/\nslow invocations \(.*\): 3, the slowest 3:\n/);
  const [errors, slow] = summary.split(/\n(?=slow)/).map(shownRecords);
  expect(errors!.map((r) => r.requestId)).toEqual(['r-timeout', 'r-timeout']);
  expect(slow!.map((r) => r.ms)).toEqual([30_001, 17_000, 16_000]);
});

it('says none when nothing was collected', () => {
  dir = mkdtempSync(join(tmpdir(), 'unhandled-'));
  expect(unhandledSummary(dir)).toBe(
    'unhandled errors (500s): none\nslow invocations (over half their timeout, with their slowest AWS calls): none\n',
  );
});

it("leads with a failed test's child: its warnings and errors, then its last lines", () => {
  dir = mkdtempSync(join(tmpdir(), 'unhandled-'));
  const info = (i: number) => `{"level":"INFO","message":"request ${i}"}`;
  const output = [
    ...Array.from({ length: 50 }, (_, i) => info(i)),
    '{"level":"WARN","message":"slow invocation"}',
    '{"level":"error","msg":"stream batch failed"}',
    ...Array.from({ length: 40 }, (_, i) => info(50 + i)),
  ];
  const before = process.env[UNHANDLED_DIR_ENV];
  process.env[UNHANDLED_DIR_ENV] = dir;
  try {
    keepChildOutput('--- "a crash test": child 42 (exit SIGKILL)', output);
  } finally {
    process.env[UNHANDLED_DIR_ENV] = before;
  }
  const [title, ...shown] = unhandledSummary(dir)
    .split(/\n(?=unhandled errors)/)[0]!
    .trimEnd()
    .split('\n');
  expect(title).toBe('--- "a crash test": child 42 (exit SIGKILL)');
  expect(shown.map((l) => l.trim())).toEqual([output[50], output[51], '…', ...output.slice(-30)]);
});
