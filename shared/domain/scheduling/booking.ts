import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { built } from '../built';

const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed', 'no_show'] as const;
export const BookingStatus = /* @__PURE__ */ built(() => z.enum(BOOKING_STATUSES));
export type BookingStatus = z.infer<typeof BookingStatus>;

/** Bookings start and end on the quarter hour (every time zone's offset is a multiple of 15 minutes). */
export const SLOT_MINUTES = 15;
const SLOT_MS = SLOT_MINUTES * 60_000;
export const MAX_DURATION_MINUTES = 8 * 60;

const REMINDERS = { '24h': 24 * 3_600_000, '1h': 3_600_000 } as const;
export type ReminderKind = keyof typeof REMINDERS;

export interface Booking {
  _id: string;
  title: string;
  customerId: string;
  assigneeId: string;
  startAt: string;
  endAt: string;
  /** The time zone the booking is shown in (the workspace's unless given). */
  timezone: string;
  location: string | null;
  notes: string | null;
  status: BookingStatus;
  cancellationReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A reminder still to send: which one and when. */
export interface Reminder {
  kind: ReminderKind;
  at: string;
}

type BookingEventName = 'created' | 'confirmed' | 'rescheduled' | 'cancelled' | 'completed' | 'no_show';

export interface BookingChange {
  booking: Booking;
  event: BookingEventName;
  fields: (keyof Booking)[];
}

/** Statuses that hold the assignee's time. A cancelled booking frees it. */
export const holdsTime = (s: BookingStatus) => s !== 'cancelled';
const upcoming = (s: BookingStatus) => s === 'pending' || s === 'confirmed';

const iso = (ms: number) => new Date(ms).toISOString();

/** 422s for times off the quarter hour, an end not after the start, or a meeting longer than 8 h. */
export const checkTimes = (startAt: string, endAt: string): void => {
  const start = Date.parse(startAt);
  const end = Date.parse(endAt);
  const errors = [];
  if (start % SLOT_MS !== 0) errors.push({ path: 'startAt', message: `Must be on a ${SLOT_MINUTES}-minute boundary` });
  if (end % SLOT_MS !== 0) errors.push({ path: 'endAt', message: `Must be on a ${SLOT_MINUTES}-minute boundary` });
  else if (end <= start) errors.push({ path: 'endAt', message: 'Must be after startAt' });
  else if (end - start > MAX_DURATION_MINUTES * 60_000)
    errors.push({ path: 'endAt', message: `A booking lasts at most ${MAX_DURATION_MINUTES} minutes` });
  if (errors.length) throw new ValidationError(errors);
};

/** The quarter hours a booking covers: each is claimed by one booking of the assignee at most. */
export const slotsOf = (b: Pick<Booking, 'startAt' | 'endAt'>): string[] => {
  const out = [];
  for (let t = Date.parse(b.startAt); t < Date.parse(b.endAt); t += SLOT_MS) out.push(iso(t));
  return out;
};

/** Reminders whose time is still ahead when the booking is made or moved; the others are never sent. */
export const remindersFor = (b: Booking, now: Date): Reminder[] =>
  upcoming(b.status)
    ? (Object.keys(REMINDERS) as ReminderKind[])
        .map((kind) => ({ kind, at: iso(Date.parse(b.startAt) - REMINDERS[kind]) }))
        .filter((r) => r.at > now.toISOString())
    : [];

export type NewBooking = Pick<Booking, 'title' | 'customerId' | 'assigneeId' | 'startAt' | 'endAt' | 'timezone'> &
  Partial<Pick<Booking, 'location' | 'notes'>>;

export const newBooking = (input: NewBooking, id: string, now: Date): Booking => {
  checkTimes(input.startAt, input.endAt);
  if (Date.parse(input.startAt) <= now.getTime()) throw new ValidationError([{ path: 'startAt', message: 'Must be in the future' }]);
  return {
    _id: id,
    title: input.title,
    customerId: input.customerId,
    assigneeId: input.assigneeId,
    startAt: iso(Date.parse(input.startAt)),
    endAt: iso(Date.parse(input.endAt)),
    timezone: input.timezone,
    location: input.location ?? null,
    notes: input.notes ?? null,
    status: 'pending',
    cancellationReason: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
};

const refuse = (b: Booking, action: string) => new ConflictError(`A ${b.status} booking cannot be ${action}`, { status: b.status });

const started = (b: Booking, now: Date, action: string) => {
  if (Date.parse(b.startAt) > now.getTime())
    throw new ConflictError(`A booking cannot be ${action} before it starts`, { startAt: b.startAt });
};

const to = (b: Booking, status: BookingStatus, event: BookingEventName, now: Date, extra: Partial<Booking> = {}): BookingChange => ({
  booking: { ...b, ...extra, status, updatedAt: now.toISOString() },
  event,
  fields: ['status', ...(Object.keys(extra) as (keyof Booking)[])],
});

export const confirm = (b: Booking, now: Date): BookingChange => {
  if (b.status !== 'pending') throw refuse(b, 'confirmed');
  return to(b, 'confirmed', 'confirmed', now);
};

export const cancel = (b: Booking, reason: string | undefined, now: Date): BookingChange => {
  if (!upcoming(b.status)) throw refuse(b, 'cancelled');
  return to(b, 'cancelled', 'cancelled', now, { cancellationReason: reason ?? null });
};

export const complete = (b: Booking, now: Date): BookingChange => {
  if (b.status !== 'confirmed') throw refuse(b, 'completed');
  started(b, now, 'completed');
  return to(b, 'completed', 'completed', now);
};

export const markNoShow = (b: Booking, now: Date): BookingChange => {
  if (b.status !== 'confirmed') throw refuse(b, 'marked as a no-show');
  started(b, now, 'marked as a no-show');
  return to(b, 'no_show', 'no_show', now);
};

/** A move to new times (and, optionally, another assignee); the same place is a no-op (undefined). */
export const reschedule = (
  b: Booking,
  input: { startAt: string; endAt: string; assigneeId?: string },
  now: Date,
): BookingChange | undefined => {
  if (!upcoming(b.status)) throw refuse(b, 'rescheduled');
  checkTimes(input.startAt, input.endAt);
  if (Date.parse(input.startAt) <= now.getTime()) throw new ValidationError([{ path: 'startAt', message: 'Must be in the future' }]);
  const after = {
    ...b,
    startAt: iso(Date.parse(input.startAt)),
    endAt: iso(Date.parse(input.endAt)),
    assigneeId: input.assigneeId ?? b.assigneeId,
  };
  const fields = (['startAt', 'endAt', 'assigneeId'] as const).filter((f) => after[f] !== b[f]);
  if (fields.length === 0) return undefined;
  return { booking: { ...after, updatedAt: now.toISOString() }, event: 'rescheduled', fields: [...fields] };
};

export const DOUBLE_BOOKED = 'The assignee already has a booking at that time';
