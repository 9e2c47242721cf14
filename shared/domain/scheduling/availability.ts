import { minutesOf, WEEKDAYS, type BusinessHours } from '../auth/workspace';
import { SLOT_MINUTES } from './booking';

const SLOT_MS = SLOT_MINUTES * 60_000;

export interface Interval {
  start: number;
  end: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

/** The wall-clock fields of instant `t` in `timeZone`. */
const wallClock = (t: number, timeZone: string) => {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(t))
      .map((p) => [p.type, Number(p.value)]),
  );
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
};

/** `timeZone`'s offset from UTC at instant `t`, in ms (local minus UTC). */
const offsetAt = (t: number, timeZone: string): number => {
  const w = wallClock(t, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000;
};

/**
 * The instant at which the wall clock in `timeZone` shows `minutes` past midnight of the local date
 * (y, m, d). Across a DST change the offset is read again at the candidate instant; a wall time skipped
 * by a spring-forward gap maps to the instant just after the gap.
 */
export const zonedInstant = (year: number, month: number, day: number, minutes: number, timeZone: string): number => {
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  return offsetAt(second, timeZone) === offsetAt(first, timeZone) ? second : Math.max(first, second);
};

/** The open intervals of `hours` (local to `timeZone`) that overlap [from, to), clipped to it. */
export const businessIntervals = (hours: BusinessHours, timeZone: string, from: number, to: number): Interval[] => {
  const first = wallClock(from, timeZone);
  const out: Interval[] = [];
  // Local dates from the day before `from` (a span may cross into it) until past `to`.
  for (let i = -1; ; i++) {
    const date = new Date(Date.UTC(first.year, first.month - 1, first.day + i));
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    if (zonedInstant(y, m, d, 0, timeZone) >= to) break;
    const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7]!;
    for (const span of hours[weekday]) {
      const start = Math.max(from, zonedInstant(y, m, d, minutesOf(span.start), timeZone));
      const end = Math.min(to, zonedInstant(y, m, d, minutesOf(span.end), timeZone));
      if (start < end) out.push({ start, end });
    }
  }
  return out;
};

/**
 * Free slots of `durationMinutes` inside the business intervals, on the quarter hour, starting no earlier
 * than `notBefore`, that touch no busy quarter hour (`busy`: the start instants of claimed quarter hours).
 */
export const freeSlots = (intervals: Interval[], busy: ReadonlySet<number>, durationMinutes: number, notBefore: number): Interval[] => {
  const length = durationMinutes * 60_000;
  const slots: Interval[] = [];
  for (const { start, end } of intervals) {
    for (let t = Math.ceil(Math.max(start, notBefore) / SLOT_MS) * SLOT_MS; t + length <= end; t += SLOT_MS) {
      let free = true;
      for (let q = t; q < t + length && free; q += SLOT_MS) free = !busy.has(q);
      if (free) slots.push({ start: t, end: t + length });
    }
  }
  return slots;
};

/** The longest range one availability request covers. */
export const MAX_RANGE_DAYS = 31;
