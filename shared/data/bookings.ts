import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Refused } from '../domain/refusal';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { bookingListOf, type BookingFilters } from '../domain/scheduling/booking-filters';
import { storedTenant, type Tenant } from '../domain/auth/tenant';
import { DOUBLE_BOOKED, holdsTime, slotsOf, type Booking, type Reminder } from '../domain/scheduling/booking';
import { activeMemberCheck, linkChecks } from './references';
import { membershipWrites, readItems, readList } from './lists';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { booking as bookingEntity, slotClaim } from './registry/scheduling';

/**
 * Bookings (keys: registry/scheduling.ts), versioned, with `reminders` still to send and, while there are
 * any, an entry in the timer's sparse index by the earliest.
 *
 * No double-booking: every quarter hour a booking holds is a slot claim of its assignee, created with
 * `attribute_not_exists` in the booking's own transaction. Two overlapping
 * bookings of one assignee need the same claim, so at most one transaction commits, however many race.
 * A move deletes the claims it leaves and creates the ones it enters; a cancellation frees its claims.
 * Lists are ordered by start: `all`, `status:<s>`, `assignee:<id>`, `assignee:<id>:status:<s>`, `customer:<id>`.
 */
const storedOf = (item: Record<string, unknown>): StoredBooking => {
  const { version, reminders, ...booking } = bookingEntity.parse(item);
  return { booking, version, reminders };
};

const fromItem = (item: Record<string, unknown>): Booking => storedOf(item).booking;

const listsOf = (b: Booking) =>
  ['all', `status:${b.status}`, `assignee:${b.assigneeId}`, `assignee:${b.assigneeId}:status:${b.status}`, `customer:${b.customerId}`].map(
    (list) => ({ list, order: { at: b.startAt, id: b._id } }),
  );

/** `<assignee>|<slot>` for every quarter hour the booking holds. */
const claimsOf = (b: Booking) => (holdsTime(b.status) ? slotsOf(b).map((slot) => `${b.assigneeId}|${slot}`) : []);

const claimWrites = (tenant: Tenant, bookingId: string, before: string[], after: string[]): Write[] => {
  const keyOf = (claim: string) => {
    const [assigneeId, slot] = claim.split('|');
    return slotClaim.key({ tenant, assigneeId: assigneeId!, slotStart: slot! });
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
  return next ? bookingEntity.index('gsi1', { earliestReminder: next, tenant, id }) : undefined;
};

export interface StoredBooking {
  booking: Booking;
  version: number;
  reminders: Reminder[];
}

/** The booking as stored, with its version (up by one with every change) and the reminders it still owes. */
export const getStoredBooking = async (tenant: Tenant, id: string): Promise<StoredBooking | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: bookingEntity.key({ tenant, id }), ConsistentRead: true }),
  );
  return Item && storedOf(Item);
};

/**
 * The writes that store a new booking: its item with the reminders it owes, its claims and list memberships,
 * and the checks that its assignee is an active member and its customer exists.
 */
export const bookingCreation = (tenant: Tenant, booking: Booking, reminders: Reminder[]): Write[] => [
  createItem({
    ...bookingEntity.key({ tenant, id: booking._id }),
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
];

/** The writes that store `after` over the version read: its claims, lists and reminder index follow it. */
export const bookingUpdate = (tenant: Tenant, stored: StoredBooking, after: Booking, reminders: Reminder[]): Write[] => {
  const before = stored.booking;
  const index = reminderIndex(tenant, before._id, reminders);
  return [
    versionedUpdate(bookingEntity.key({ tenant, id: before._id }), stored.version, before, after, {
      set: { reminders, ...index },
      remove: index ? [] : ['gsi1pk', 'gsi1sk'],
    }),
    ...(after.assigneeId !== before.assigneeId ? [activeMemberCheck(tenant, after.assigneeId)] : []),
    ...claimWrites(tenant, before._id, claimsOf(before), claimsOf(after)),
    ...membershipWrites(tenant, 'booking', before._id, listsOf(before), listsOf(after)),
  ];
};

/** One page of bookings by start time, optionally those starting in [from, to). */
export const bookingsPage = async (tenant: Tenant, filters: BookingFilters, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'booking', bookingListOf(filters), page, {
    from: filters.from,
    upTo: filters.to,
  });
  return {
    bookings: await readItems(
      ids.map((id) => bookingEntity.key({ tenant, id })),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** The start instants of the assignee's claimed quarter hours in [from, to]. */
export const busySlots = async (tenant: Tenant, assigneeId: string, from: string, to: string): Promise<Set<number>> => {
  const claims = await collect(queryAll({ pk: slotClaim.build('pk', { tenant, assigneeId }), skBetween: [from, to] }));
  return new Set(claims.map((c) => Date.parse(slotClaim.read('sk', c.sk).slotStart)));
};

/** Bookings with a reminder due by `now`, across tenants, from the sparse index. */
export const dueBookingReminders = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: bookingEntity.build('gsi1pk', {}), skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => {
    const { tenant, id } = bookingEntity.read('gsi1sk', i.gsi1sk);
    return { tenant: storedTenant(tenant), id };
  });
};
