/**
 * A mergeable latency sketch: counts in fixed log-scale buckets, eight per doubling. Days merge by adding
 * bucket counts, so a percentile over any range comes from the days' sketches, never from raw rows.
 *
 * Accuracy: bucket i ≥ 1 holds values in [2^((i-1)/8), 2^(i/8)) and reports their geometric midpoint, so a
 * percentile is within ±4.4% (2^(1/16) − 1) of the exact nearest-rank value; bucket 0 holds values below
 * 1 and reports 0. Values beyond 2^25 (about 388 days in seconds) share the last bucket.
 */
const BUCKETS_PER_DOUBLING = 8;
const MAX_BUCKET = 25 * BUCKETS_PER_DOUBLING + 1;
export const RELATIVE_ERROR = 2 ** (1 / (2 * BUCKETS_PER_DOUBLING)) - 1;

export type Histogram = Map<number, number>;

export const bucketOf = (value: number): number =>
  value < 1 ? 0 : Math.min(MAX_BUCKET, Math.floor(Math.log2(value) * BUCKETS_PER_DOUBLING) + 1);

const representative = (bucket: number): number => (bucket === 0 ? 0 : 2 ** ((bucket - 0.5) / BUCKETS_PER_DOUBLING));

const countOf = (h: Histogram): number => [...h.values()].reduce((a, b) => a + b, 0);

/** The nearest-rank q-quantile (0 < q ≤ 1), rounded to whole units; null for an empty sketch. */
export const quantile = (h: Histogram, q: number): number | null => {
  const total = countOf(h);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const bucket of [...h.keys()].sort((a, b) => a - b)) {
    seen += h.get(bucket)!;
    if (seen >= rank) return Math.round(representative(bucket));
  }
  return null;
};

export const merge = (into: Histogram, from: Histogram): Histogram => {
  for (const [bucket, n] of from) into.set(bucket, (into.get(bucket) ?? 0) + n);
  return into;
};

export const summary = (h: Histogram) => ({ median: quantile(h, 0.5), p90: quantile(h, 0.9), count: countOf(h) });
