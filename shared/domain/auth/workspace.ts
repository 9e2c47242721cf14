import * as z from 'zod';
import { built } from '../built';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One span of open hours on a weekday, local wall-clock time in the workspace's timezone (`end` may be `24:00`). */
export interface HoursSpan {
  start: string;
  end: string;
}

export type BusinessHours = Record<Weekday, HoursSpan[]>;

export interface Workspace {
  _id: string;
  name: string;
  /** IANA time zone; reports and business hours are read in it. */
  timezone: string;
  /** BCP 47 language tag, e.g. `en-US`. */
  locale: string;
  businessHours: BusinessHours;
  /** The bytes of ready files each mode may hold (docs/guide/files.md); default 10 GiB. */
  storageQuotaBytes: number;
  /** How long closed conversations are kept (docs/guide/retention.md); null: forever. */
  retention: Retention;
  createdAt: string;
  updatedAt: string;
}

/** Days a closed conversation is kept after it closed, at least MIN_RETENTION_DAYS; null keeps it forever. */
export interface Retention {
  closedConversationDays: number | null;
}
export const MIN_RETENTION_DAYS = 30;
/** Ten years: longer is "forever", which is null. */
export const MAX_RETENTION_DAYS = 3650;
export const defaultRetention = (): Retention => ({ closedConversationDays: null });

export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_LOCALE = 'en-US';
/** 10 GiB of ready files per mode, until the workspace sets another quota. */
export const DEFAULT_STORAGE_QUOTA_BYTES = 10 * 1024 ** 3;
/** The largest quota a workspace may set: 1 TiB. */
export const MAX_STORAGE_QUOTA_BYTES = 1024 ** 4;

const nineToFive = (): HoursSpan[] => [{ start: '09:00', end: '17:00' }];
/** Monday to Friday, 09:00–17:00: what a workspace has until it says otherwise. */
export const defaultBusinessHours = (): BusinessHours => ({
  monday: nineToFive(),
  tuesday: nineToFive(),
  wednesday: nineToFive(),
  thursday: nineToFive(),
  friday: nineToFive(),
  saturday: [],
  sunday: [],
});

/** Minutes since local midnight of `HH:MM`. */
export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether the runtime's time zone database knows `tz` (an IANA name such as `Europe/Berlin`). */
export const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const isLocale = (tag: string) => {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
};

export const TimeZone = /* @__PURE__ */ built(() => z.string().max(64).refine(isTimeZone, 'Must be an IANA time zone, e.g. Europe/Berlin'));
export const Locale = /* @__PURE__ */ built(() => z.string().max(35).refine(isLocale, 'Must be a BCP 47 language tag, e.g. en-US'));

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const Clock = /* @__PURE__ */ built(() => z.string().regex(CLOCK, 'Must be HH:MM (00:00 to 24:00)'));
const wellFormed = (...times: string[]) => times.every((t) => CLOCK.test(t));
const Span = /* @__PURE__ */ built(() =>
  z
    .strictObject({ start: Clock, end: Clock })
    .refine((s) => !wellFormed(s.start, s.end) || minutesOf(s.start) < minutesOf(s.end), { message: 'Must be after start', path: ['end'] }),
);
/** A weekday's spans: at most 6, in order, not overlapping. */
const Spans = /* @__PURE__ */ built(() =>
  z
    .array(Span)
    .max(6)
    .superRefine((spans, ctx) => {
      spans.forEach((s, i) => {
        const previous = spans[i - 1];
        if (previous && wellFormed(s.start, previous.end) && minutesOf(s.start) < minutesOf(previous.end))
          ctx.addIssue({ code: 'custom', message: 'Spans must be in order and not overlap', path: [i, 'start'] });
      });
    }),
);
/** Business hours in a PATCH: the weekdays given replace theirs; `[]` closes a day. */
export const BusinessHoursPatch = /* @__PURE__ */ built(() =>
  z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, Spans.optional()])) as Record<Weekday, z.ZodOptional<typeof Spans>>),
);

export interface WorkspacePatch {
  name?: string;
  timezone?: string;
  locale?: string;
  businessHours?: Partial<BusinessHours>;
  storageQuotaBytes?: number;
  retention?: Retention;
}

/** The workspace after a PATCH: business hours merge per weekday. */
export const patchWorkspace = (w: Workspace, patch: WorkspacePatch, now: Date): Workspace => {
  const businessHours = {
    ...w.businessHours,
    ...Object.fromEntries(Object.entries(patch.businessHours ?? {}).filter(([, v]) => v !== undefined)),
  };
  const after = {
    ...w,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.timezone ? { timezone: patch.timezone } : {}),
    ...(patch.locale ? { locale: patch.locale } : {}),
    ...(patch.storageQuotaBytes !== undefined ? { storageQuotaBytes: patch.storageQuotaBytes } : {}),
    ...(patch.retention ? { retention: patch.retention } : {}),
    businessHours,
  };
  return { ...after, updatedAt: now.toISOString() };
};
