import * as z from 'zod';
import { built } from './built';

/**
 * Every date and time the API accepts lies in [2000-01-01T00:00Z, 2100-01-01T00:00Z]: wide enough for any
 * real record (history imported from before the service, plans decades ahead), and narrow enough that every
 * date in it and a report's span around it keep four-digit years, so ISO strings sort as the dates do and
 * day-by-day arithmetic stays within the years `Date` and `Intl` handle alike.
 */
const EARLIEST_DATE = '2000-01-01';
const LATEST_DATE = '2100-01-01';

const EARLIEST_MS = Date.parse(`${EARLIEST_DATE}T00:00:00Z`);
const LATEST_MS = Date.parse(`${LATEST_DATE}T00:00:00Z`);
export const OUT_OF_RANGE = `Must lie between ${EARLIEST_DATE} and ${LATEST_DATE}`;

/** Whether an ISO date (read as UTC midnight) or date-time lies within the bounds. */
export const withinBounds = (iso: string) => {
  const ms = Date.parse(iso);
  return ms >= EARLIEST_MS && ms <= LATEST_MS;
};

/** A calendar day, `YYYY-MM-DD`, within the bounds. */
export const CalendarDate = /* @__PURE__ */ built(() => z.iso.date().refine(withinBounds, OUT_OF_RANGE));

/** An ISO-8601 date-time with an offset (`Z` or `±hh:mm`), within the bounds. */
export const DateTime = /* @__PURE__ */ built(() => z.iso.datetime({ offset: true }).refine(withinBounds, OUT_OF_RANGE));
