import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `npm run bench -- cost` writes what it measured here; `npm run cost` prices workloads with it. */
const MEASURED_FILE = join(import.meta.dirname, 'measured-writes.json');

export interface MeasuredRow {
  /** A route (`POST /api/v1/tags`) or a consumer (`queue webhook-deliveries`, `event webhook-fanout`, `schedule …`). */
  what: string;
  calls: number;
  itemsPerCall: number;
  unitsPerCall: number;
}

export interface MeasuredWrites {
  measuredOn: string;
  rows: MeasuredRow[];
}

export const writeMeasured = (rows: MeasuredRow[], now = new Date()): void =>
  writeFileSync(
    MEASURED_FILE,
    `${JSON.stringify({ measuredOn: now.toISOString().slice(0, 10), rows } satisfies MeasuredWrites, null, 2)}\n`,
  );

export const readMeasured = (): MeasuredWrites => JSON.parse(readFileSync(MEASURED_FILE, 'utf8')) as MeasuredWrites;
