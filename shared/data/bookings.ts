import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Missing, Refused } from '../domain/refusal';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { bookingListOf, type BookingFilters } from '../domain/scheduling/booking-filters';
import type { Tenant } from '../domain/auth/tenant';
import {
  DOUBLE_BOOKED,
  holdsTime,
  newBooking,
  remindersFor,
  slotsOf,
  type Booking,
  type BookingChange,
  type NewBooking,
  type Reminder,
} from '../domain/scheduling/booking';
import { linkChecks } from './crm-links';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import { activeMemberCheck } from './members';
import { outboxItem } from './outbox';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { createItem, deleteItem, transact, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { booking as bookingView } from '../views/scheduling';

/**
 * Bookings: pk=<tenant>#BOOKING#<id> sk=BOOKING (versioned), with `reminders` still to send and, while
 * there are any, gsi1pk=BOOKINGREMIND gsi1sk=<earliest>#<tenant>#<id> (the timer's sparse index).
 *
 * No double-booking: every quarter hour a booking holds is a claim item pk=<tenant>#SLOT#<assignee>
 * sk=<slot start>, created with `attribute_not_exists` in the booking's own transaction. Two overlapping
 * bookings of one assignee need the same claim, so at most one transaction commits, however many race.
 * A move deletes the claims it leaves and creates the ones it enters; a cancellation frees its claims.
 * Lists are ordered by start: `all`, `status:<s>`, `assignee:<id>`, `assignee:<id>:status:<s>`, `customer:<id>`.
 */
const REMINDER_INDEX = K.BOOKINGREMIND;

const bookingKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.BOOKING, id), sk: K.BOOKING });
const slotPk = (tenant: Tenant, assigneeId: string) => tenantPk(tenant, K.SLOT, assigneeId);

interface Stored {
  booking: Booking;
  version: number;
  reminders: Reminder[];
}

const fromItem: (item: Record<string, unknown>) => Booking = itemCodec(bookingView);

const listsOf = (b: Booking) =>
  ['all', `status:${b.status}`, `assignee:${b.assigneeId}`, `assignee:${b.assigneeId}:status:${b.status}`, `customer:${b.customerId}`].map(
    (list) => ({
      list,
      order: `${b.startAt}#${b._id}`,
    }),
  );

/** `<assignee>|<slot>` for every quarter hour the booking holds. */
const claimsOf = (b: Booking) => (holdsTime(b.status) ? slotsOf(b).map((slot) => `${b.assigneeId}|${slot}`) : []);

const claimWrites = (tenant: Tenant, bookingId: string, before: string[], after: string[]): Write[] => {
  const keyOf = (claim: string) => {
    const [assigneeId, slot] = claim.split('|');
    return { pk: slotPk(tenant, assigneeId!), sk: slot! };
  };
  const kept = new Set(after);
  const had = new Set(before);
  return [
    ...before.filter((c) => !kept.has(c)).map((c) => deleteItem(keyOf(c), { condition: 'bookingId = :b', values: { ':b': bookingId } })),
    ...after
      .filter((c) => !had.has(c))
      .map((c) =>
        createItem({ ...keyOf(c), type: 'SLOT_CLAIM', bookingId }, () => new Refused('slot_taken', DOUBLE_BOOKED, { slot: keyOf(c).sk })),
      ),
  ];
};

const reminderIndex = (tenant: Tenant, id: string, reminders: Reminder[]) => {
  const next = reminders.map((r) => r.at).sort()[0];
  return next ? { gsi1pk: REMINDER_INDEX, gsi1sk: indexSk(next, tenant, id) } : undefined;
};

const event = (
  tenant: Tenant,
  before: Booking | undefined,
  change: Pick<BookingChange, 'event' | 'fields'>,
  after: Booking,
  now: Date,
): Write => {
  const pick = (b: Booking) => Object.fromEntries(change.fields.map((f) => [f, b[f]]));
  return outboxItem(
    buildEnvelope(
      `scheduling.booking.${change.event}`,
      tenant,
      { booking: after },
      { changes: before ? diff(pick(before), pick(after)) : undefined, now },
    ),
  );
};

const getStored = async (tenant: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: bookingKey(tenant, id), ConsistentRead: true }),
  );
  return Item
    ? { booking: fromItem(Item), version: Item.version as number, reminders: (Item.reminders as Reminder[] | undefined) ?? [] }
    : undefined;
};

/** The booking with its stored version, which goes up with every change to it. */
export const getVersionedBooking = async (tenant: Tenant, id: string): Promise<{ booking: Booking; version: number }> => {
  const stored = await getStored(tenant, id);
  if (!stored) throw new Missing('Booking');
  return stored;
};

export const getBooking = async (tenant: Tenant, id: string): Promise<Booking> => (await getVersionedBooking(tenant, id)).booking;

/** Creates a pending booking: its claims, an active assignee and an existing customer, all in one transaction. */
export const createBooking = async (tenant: Tenant, input: NewBooking, now: Date): Promise<Booking> => {
  const booking = newBooking(input, objectId(now.getTime()), now);
  const reminders = remindersFor(booking, now);
  await retryOnConflict(() =>
    transact(
      [
        createItem({
          ...bookingKey(tenant, booking._id),
          type: 'BOOKING',
          version: 1,
          ...booking,
          reminders,
          ...reminderIndex(tenant, booking._id, reminders),
        }),
        activeMemberCheck(tenant, booking.assigneeId),
        ...linkChecks(tenant, { customerId: booking.customerId }),
        ...claimWrites(tenant, booking._id, [], claimsOf(booking)),
        ...membershipWrites(tenant, 'booking', booking._id, [], listsOf(booking)),
        event(tenant, undefined, { event: 'created', fields: [] }, booking, now),
      ],
      lostRace,
    ),
  );
  return booking;
};

interface BookingStep {
  change?: BookingChange;
  reminders?: Reminder[];
  extra?: Write[];
}

/** Read, decide, write under the version read: claims, lists, reminders and the event follow the change. */
const mutateBooking = (tenant: Tenant, id: string, decide: (stored: Stored) => BookingStep | undefined, now: Date): Promise<Booking> =>
  retryOnConflict(async () => {
    const stored = await getStored(tenant, id);
    if (!stored) throw new Missing('Booking');
    const before = stored.booking;
    const step = decide(stored);
    if (!step) return before;
    const after = step.change?.booking ?? before;
    const reminders = step.reminders ?? stored.reminders;
    const index = reminderIndex(tenant, id, reminders);
    await transact(
      [
        versionedUpdate(bookingKey(tenant, id), stored.version, before, after, {
          set: { reminders, ...index },
          remove: index ? [] : ['gsi1pk', 'gsi1sk'],
        }),
        ...(after.assigneeId !== before.assigneeId ? [activeMemberCheck(tenant, after.assigneeId)] : []),
        ...claimWrites(tenant, id, claimsOf(before), claimsOf(after)),
        ...membershipWrites(tenant, 'booking', id, listsOf(before), listsOf(after)),
        ...(step.change ? [event(tenant, before, step.change, after, now)] : []),
        ...(step.extra ?? []),
      ],
      lostRace,
    );
    return after;
  });

/**
 * Applies a transition. A move schedules its reminders afresh; any other change keeps the ones still owed
 * while the booking is upcoming, and drops them once it is cancelled, completed or a no-show.
 */
export const transitionBooking = (
  tenant: Tenant,
  id: string,
  transition: (b: Booking) => BookingChange | undefined,
  now: Date,
): Promise<Booking> =>
  mutateBooking(
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

/** One page of bookings by start time, optionally those starting in [from, to). */
export const listBookings = async (tenant: Tenant, filters: BookingFilters, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'booking', bookingListOf(filters), page, {
    from: filters.from,
    upTo: filters.to,
  });
  return {
    bookings: await readItems(
      ids.map((id) => bookingKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** The start instants of the assignee's claimed quarter hours in [from, to]. */
export const busySlots = async (tenant: Tenant, assigneeId: string, from: string, to: string): Promise<Set<number>> => {
  const claims = await collect(queryAll({ pk: slotPk(tenant, assigneeId), skBetween: [from, to] }));
  return new Set(claims.map((c) => Date.parse(c.sk as string)));
};

/** Bookings with a reminder due by `now`, across tenants, from the sparse index. */
export const dueBookingReminders = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: REMINDER_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};

/**
 * Sends the booking's reminders that are due (`scheduling.booking.reminder`, one event each) and drops them
 * from the booking in the same versioned write: overlapping timer runs and retries send each exactly once.
 */
export const sendDueReminders = async (tenant: Tenant, id: string, now: Date): Promise<boolean> => {
  let sent = false;
  await mutateBooking(
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
