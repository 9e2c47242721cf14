import { performance } from 'node:perf_hooks';

export interface Latency {
  requests: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `op` `requests` times with `concurrency` in flight (after `warmup` untimed runs); bounded by count. */
export const measure = async (
  op: (i: number) => Promise<unknown>,
  opts: { requests: number; concurrency: number; warmup?: number },
): Promise<Latency> => {
  for (let i = 0; i < (opts.warmup ?? 20); i++) await op(i);
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.requests) {
        const i = next++;
        const t = performance.now();
        await op(i);
        durations.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  durations.sort((a, b) => a - b);
  return {
    requests: opts.requests,
    concurrency: opts.concurrency,
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    rps: (opts.requests / elapsed) * 1000,
  };
};

/**
 * Runs each op `requests` times, one request at a time, interleaved in rotating order, so the drift of a
 * busy machine falls on every op alike: the fair way to compare a path with its baseline.
 */
export const measureInterleaved = async <K extends string>(
  ops: Record<K, (i: number) => Promise<unknown>>,
  opts: { requests: number; warmup?: number },
): Promise<Record<K, Latency>> => {
  const names = Object.keys(ops) as K[];
  for (let i = 0; i < (opts.warmup ?? 20); i++) for (const name of names) await ops[name](i);
  const durations = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const spent = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
  for (let i = 0; i < opts.requests; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      const t = performance.now();
      await ops[name](i);
      const d = performance.now() - t;
      durations[name].push(d);
      spent[name] += d;
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = durations[n].sort((a, b) => a - b);
      return [
        n,
        {
          requests: opts.requests,
          concurrency: 1,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          rps: (opts.requests / spent[n]) * 1000,
        },
      ];
    }),
  ) as Record<K, Latency>;
};

export interface Section {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);

export const printSection = (s: Section): void => {
  const rows = [s.columns, ...s.rows.map((r) => r.map(cell))];
  const widths = s.columns.map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => `| ${r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(`\n## ${s.title}\n\n${line(rows[0]!)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const r of rows.slice(1)) process.stdout.write(`${line(r)}\n`);
  for (const n of s.notes ?? []) process.stdout.write(`\n${n}\n`);
};
