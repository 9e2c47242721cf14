/** One formatter per timezone: making one costs far more than formatting with it, and every event asks. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormat = (timeZone: string): Intl.DateTimeFormat => {
  const found =
    dayFormats.get(timeZone) ?? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  dayFormats.set(timeZone, found);
  return found;
};

/** Dates are `YYYY-MM-DD` calendar days of the workspace's timezone. */
export const localDate = (at: Date, timeZone: string): string => dayFormat(timeZone).format(at);

const DAY_MS = 86_400_000;
const asUtc = (date: string) => Date.parse(`${date}T00:00:00Z`);
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => fromUtc(asUtc(date) + days * DAY_MS);
export const daysBetween = (from: string, to: string): number => Math.round((asUtc(to) - asUtc(from)) / DAY_MS);

export type Interval = 'day' | 'week';

/** The periods a range splits into: days, or ISO weeks (Monday to Sunday) clipped to the range. */
export const periodsOf = (from: string, to: string, interval: Interval): { start: string; end: string }[] => {
  const periods: { start: string; end: string }[] = [];
  for (let start = from; start <= to; ) {
    const weekday = (new Date(asUtc(start)).getUTCDay() + 6) % 7;
    const end = interval === 'day' ? start : addDays(start, 6 - weekday);
    periods.push({ start, end: end < to ? end : to });
    start = addDays(end, 1);
  }
  return periods;
};
