import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { unhandledSummary } from '../../support/unhandled';

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
