/**
 * The events log is ordered by event id: 4 bytes of epoch seconds first (shared/ids.ts), so an id range is a
 * time range. These bounds turn times and ids into sort-key bounds, inclusive as a Query's BETWEEN is.
 */
export const EVENT_RETENTION_DAYS = 30;

const seconds = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0');

/** The smallest id of any event that occurred in the second of `ms` or later. */
export const firstIdAt = (ms: number): string => `${seconds(ms)}${'0'.repeat(16)}`;

/** The largest id of any event that occurred in the second of `ms` or earlier. */
export const lastIdAt = (ms: number): string => `${seconds(ms)}${'f'.repeat(16)}`;

/** A sort-key bound just above `id`: greater than it, and not greater than any larger id. */
export const justAfter = (id: string): string => `${id}0`;

/** The ms time encoded in an event id's first 4 bytes. */
export const idTime = (id: string): number => Number.parseInt(id.slice(0, 8), 16) * 1000;

export const retentionStart = (now: Date): number => now.getTime() - EVENT_RETENTION_DAYS * 86_400_000;

export interface LogRange {
  /** Only events after this id (catching up), oldest first. */
  since?: string;
  from?: string;
  to?: string;
}

/** The inclusive sort-key bounds of a listing: never older than the log keeps, never past now. */
export const idBounds = (range: LogRange, now: Date): readonly [string, string] => {
  const floor = Math.max(retentionStart(now), range.from ? Date.parse(range.from) : 0);
  const lo = range.since && range.since >= firstIdAt(floor) ? justAfter(range.since) : firstIdAt(floor);
  const hi = lastIdAt(Math.min(now.getTime(), range.to ? Date.parse(range.to) : Number.POSITIVE_INFINITY));
  return [lo, hi];
};
