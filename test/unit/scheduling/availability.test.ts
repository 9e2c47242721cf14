import { describe, expect, it } from 'vitest';
import { defaultBusinessHours } from '../../../shared/domain/auth/workspace';
import { businessIntervals, freeSlots, zonedInstant } from '../../../shared/domain/scheduling/availability';
import {
  cancel,
  checkTimes,
  complete,
  confirm,
  remindersFor,
  reschedule,
  slotsOf,
  type Booking,
} from '../../../shared/domain/scheduling/booking';

const iso = (ms: number) => new Date(ms).toISOString();

describe('zonedInstant', () => {
  it('maps local wall-clock times to UTC on both sides of a daylight-saving change', () => {
    expect(iso(zonedInstant(2027, 3, 27, 9 * 60, 'Europe/Berlin'))).toBe('2027-03-27T08:00:00.000Z');
    expect(iso(zonedInstant(2027, 3, 29, 9 * 60, 'Europe/Berlin'))).toBe('2027-03-29T07:00:00.000Z');
    expect(iso(zonedInstant(2027, 11, 8, 9 * 60, 'America/New_York'))).toBe('2027-11-08T14:00:00.000Z');
    expect(iso(zonedInstant(2027, 11, 6, 9 * 60, 'America/New_York'))).toBe('2027-11-06T13:00:00.000Z');
    expect(iso(zonedInstant(2027, 1, 4, 9 * 60, 'Asia/Kathmandu'))).toBe('2027-01-04T03:15:00.000Z');
  });

  it('maps a time skipped by the spring-forward gap to just after the gap, and midnight of the next day for 24:00', () => {
    // 02:30 does not exist in Berlin on 28 March 2027 (02:00 → 03:00, i.e. 01:00Z).
    expect(iso(zonedInstant(2027, 3, 28, 2 * 60 + 30, 'Europe/Berlin'))).toBe('2027-03-28T01:30:00.000Z');
    expect(iso(zonedInstant(2027, 1, 4, 24 * 60, 'UTC'))).toBe('2027-01-05T00:00:00.000Z');
  });
});

describe('business intervals and free slots', () => {
  it('clips the business hours of each local day to the range, in the zone', () => {
    const from = Date.parse('2027-01-04T10:30:00Z'); // a Monday
    const to = Date.parse('2027-01-06T00:00:00Z');
    const intervals = businessIntervals(defaultBusinessHours(), 'UTC', from, to).map((i) => [iso(i.start), iso(i.end)]);
    expect(intervals).toEqual([
      ['2027-01-04T10:30:00.000Z', '2027-01-04T17:00:00.000Z'],
      ['2027-01-05T09:00:00.000Z', '2027-01-05T17:00:00.000Z'],
    ]);
  });

  it('offers only slots that touch no busy quarter hour and start no earlier than the given instant', () => {
    const start = Date.parse('2027-01-04T09:00:00Z');
    const busy = new Set([Date.parse('2027-01-04T09:30:00Z')]);
    const slots = freeSlots([{ start, end: start + 2 * 3_600_000 }], busy, 30, Date.parse('2027-01-04T09:05:00Z')).map((s) =>
      iso(s.start).slice(11, 16),
    );
    expect(slots).toEqual(['09:45', '10:00', '10:15', '10:30']);
  });
});

describe('the booking state machine', () => {
  const now = new Date('2027-01-01T00:00:00Z');
  const b: Booking = {
    _id: 'a'.repeat(24),
    title: 'Call',
    customerId: 'c'.repeat(24),
    assigneeId: 'd'.repeat(24),
    startAt: '2027-01-03T10:00:00.000Z',
    endAt: '2027-01-03T10:30:00.000Z',
    timezone: 'UTC',
    location: null,
    notes: null,
    status: 'pending',
    cancellationReason: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };

  it('claims every quarter hour of the booking and owes the reminders still ahead', () => {
    expect(slotsOf(b)).toEqual(['2027-01-03T10:00:00.000Z', '2027-01-03T10:15:00.000Z']);
    expect(remindersFor(b, now).map((r) => r.kind)).toEqual(['24h', '1h']);
    expect(remindersFor(b, new Date('2027-01-02T12:00:00Z')).map((r) => r.kind)).toEqual(['1h']);
    expect(remindersFor({ ...b, status: 'cancelled' }, now)).toEqual([]);
  });

  it('allows only the legal moves', () => {
    expect(confirm(b, now).booking.status).toBe('confirmed');
    expect(() => complete(b, new Date('2027-01-03T10:05:00Z'))).toThrow(/pending booking cannot be completed/);
    const confirmed = { ...b, status: 'confirmed' as const };
    expect(() => complete(confirmed, now)).toThrow(/before it starts/);
    expect(complete(confirmed, new Date('2027-01-03T10:05:00Z')).booking.status).toBe('completed');
    expect(() => cancel({ ...b, status: 'completed' }, undefined, now)).toThrow(/cannot be cancelled/);
    expect(reschedule(b, { startAt: b.startAt, endAt: b.endAt }, now)).toBeUndefined();
    expect(reschedule(b, { startAt: '2027-01-03T11:00:00Z', endAt: '2027-01-03T11:45:00Z' }, now)?.fields).toEqual(['startAt', 'endAt']);
    expect(() => checkTimes('2027-01-03T10:10:00Z', '2027-01-03T10:30:00Z')).toThrow(/startAt/);
  });
});
