import { tenantParts, type Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { newBooking, remindersFor, type Booking, type BookingChange, type NewBooking, type Reminder } from '../domain/scheduling/booking';
import type { BookingFilters } from '../domain/scheduling/booking-filters';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { bookingCreation, bookingsPage, bookingUpdate, getStoredBooking, type StoredBooking } from '../data/bookings';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { getWorkspace } from '../data/workspaces';
import { bookingCalendar } from './ics';
import { isScrubbed, scrubbed } from '../domain/erasure/erasure';

const workspaceOf = (tenant: Tenant) => getWorkspace(tenantParts(tenant).workspaceId);

const requireStored = async (tenant: Tenant, id: string): Promise<StoredBooking> => {
  const stored = await getStoredBooking(tenant, id);
  if (!stored) throw new Missing('Booking');
  return stored;
};

/** `scheduling.booking.<event>`, with `changes` on the fields the change names. */
const bookingEvent = (
  tenant: Tenant,
  before: Booking | undefined,
  change: Pick<BookingChange, 'event' | 'fields'>,
  after: Booking,
  now: Date,
): Write => {
  const pick = (b: Booking) => Object.fromEntries(change.fields.map((f) => [f, b[f]]));
  const changes = before ? diff(pick(before), pick(after)) : undefined;
  return outboxItem(buildEnvelope(`scheduling.booking.${change.event}`, tenant, { booking: after }, { changes, now }));
};

export const getBooking = async (tenant: Tenant, id: string): Promise<Booking> => (await requireStored(tenant, id)).booking;

/** One page of bookings by start time, optionally those starting in [from, to). */
export const listBookings = (tenant: Tenant, filters: BookingFilters, page: PageRequest) => bookingsPage(tenant, filters, page);

/**
 * Creates a pending booking, in the workspace's timezone unless the request names one, with the reminders it
 * will owe: its claims, an active assignee and an existing customer are checked in its one transaction.
 */
export const createBooking = async (
  unit: Unit,
  tenant: Tenant,
  input: Omit<NewBooking, 'timezone'> & Partial<Pick<NewBooking, 'timezone'>>,
  now: Date,
): Promise<Booking> => {
  const timezone = input.timezone ?? (await workspaceOf(tenant))!.timezone;
  const booking = newBooking({ ...input, timezone }, objectId(now.getTime()), now);
  const writes = [
    ...bookingCreation(tenant, booking, remindersFor(booking, now)),
    bookingEvent(tenant, undefined, { event: 'created', fields: [] }, booking, now),
  ];
  await retryOnConflict(() => unit.commit(writes, lostRace));
  return booking;
};

interface BookingStep {
  change?: BookingChange;
  reminders?: Reminder[];
  extra?: Write[];
}

/** Read, decide, write under the version read: the event follows the change, with `extra` in the same transaction. */
const mutateBooking = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (stored: StoredBooking) => BookingStep | undefined,
  now: Date,
): Promise<Booking> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    const step = decide(stored);
    if (!step) return stored.booking;
    const after = step.change?.booking ?? stored.booking;
    await unit.commit(
      [
        ...bookingUpdate(tenant, stored, after, step.reminders ?? stored.reminders),
        ...(step.change ? [bookingEvent(tenant, stored.booking, step.change, after, now)] : []),
        ...(step.extra ?? []),
      ],
      lostRace,
    );
    return after;
  });

/**
 * Clears what a booking holds of its customer (an erasure), without an event, with `extra` in the same
 * transaction; false when it was already cleared.
 */
export const scrubBooking = (unit: Unit, tenant: Tenant, id: string, now: Date, extra: Write[]): Promise<boolean> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    if (isScrubbed(stored.booking)) return false;
    await unit.commit([...bookingUpdate(tenant, stored, scrubbed(stored.booking, now), stored.reminders), ...extra], lostRace);
    return true;
  });

/**
 * Applies a transition. A move schedules its reminders afresh; any other change keeps the ones still owed
 * while the booking is upcoming, and drops them once it is cancelled, completed or a no-show.
 */
export const transitionBooking = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  transition: (b: Booking) => BookingChange | undefined,
  now: Date,
) =>
  mutateBooking(
    unit,
    tenant,
    id,
    (stored) => {
      const change = transition(stored.booking);
      if (!change) return undefined;
      const upcoming = change.booking.status === 'pending' || change.booking.status === 'confirmed';
      const reminders = !upcoming ? [] : change.event === 'rescheduled' ? remindersFor(change.booking, now) : stored.reminders;
      return { change, reminders };
    },
    now,
  );

/**
 * Sends the booking's reminders that are due (`scheduling.booking.reminder`, one event each) and drops them
 * from the booking in the same versioned write: overlapping timer runs and retries send each exactly once.
 */
export const sendDueReminders = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<boolean> => {
  let sent = false;
  await mutateBooking(
    unit,
    tenant,
    id,
    ({ booking, reminders }) => {
      const due = reminders.filter((r) => r.at <= now.toISOString());
      if (due.length === 0) return undefined;
      sent = true;
      return {
        reminders: reminders.filter((r) => r.at > now.toISOString()),
        extra: due.map((r) => outboxItem(buildEnvelope('scheduling.booking.reminder', tenant, { booking, reminder: r.kind }, { now }))),
      };
    },
    now,
  );
  return sent;
};

/** The booking as an iCalendar file named after its workspace (see `bookingCalendar`). */
export const bookingIcs = async (tenant: Tenant, id: string): Promise<string> => {
  const [{ booking, version }, workspace] = await Promise.all([requireStored(tenant, id), workspaceOf(tenant)]);
  return bookingCalendar(booking, version, workspace!.name);
};
