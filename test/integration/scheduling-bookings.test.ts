import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { handler as remindBookings } from '../../functions/schedules/remind-bookings';
import { createBooking, sendDueReminders } from '../../shared/scheduling/bookings';
import { expectError } from '../support/api';
import { create, CUSTOMERS } from '../support/crm';
import { agentId, quarterHourIn } from '../support/members';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { direct } from '../../shared/data/unit';

const env = useTestStack({ workers: false });

const BOOKINGS = '/api/v1/scheduling/bookings';
const AVAILABILITY = '/api/v1/scheduling/availability';
const HOUR = 3_600_000;
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const tenant = async () => {
  const t = await env.tenant();
  const [customer, assigneeId] = await Promise.all([create(t.api, CUSTOMERS, { name: 'Ada Lovelace' }, 'customer'), agentId(t.api)]);
  const book = (startAt: string, minutes = 30, body: Record<string, unknown> = {}) =>
    t.api.post(BOOKINGS, { title: 'Demo call', customerId: customer._id, assigneeId, startAt, endAt: at(startAt, minutes), ...body });
  return { ...t, customer, assigneeId, book };
};

const bookingEvents = async (workspaceId: string, id: string) =>
  (await outboxEvents(workspaceId)).filter(
    (e) => e.eventType.startsWith('scheduling.booking.') && (e.data.booking as { _id: string })._id === id,
  );

describe('bookings', () => {
  it('creates, gets, confirms, reschedules and cancels a booking, one event each, with changes on the move', async () => {
    const t = await tenant();
    const startAt = quarterHourIn(48);
    const res = await t.book(startAt, 45, { location: 'Zoom', notes: 'Bring the contract' });
    expect(res.status).toBe(201);
    const booking = res.body.data.booking;
    expect(booking).toMatchObject({
      status: 'pending',
      startAt,
      endAt: at(startAt, 45),
      timezone: 'UTC',
      location: 'Zoom',
      assigneeId: t.assigneeId,
      customerId: t.customer._id,
    });
    expect((await t.api.get(`${BOOKINGS}/${booking._id}`)).body.data.booking).toEqual(booking);

    expect((await t.api.post(`${BOOKINGS}/${booking._id}/confirm`)).body.data.booking.status).toBe('confirmed');
    const moved = await t.api.post(`${BOOKINGS}/${booking._id}/reschedule`, { startAt: at(startAt, 30), endAt: at(startAt, 90) });
    expect(moved.body.data.booking).toMatchObject({ status: 'confirmed', startAt: at(startAt, 30), endAt: at(startAt, 90) });
    const cancelled = await t.api.post(`${BOOKINGS}/${booking._id}/cancel`, { reason: 'Customer asked' });
    expect(cancelled.body.data.booking).toMatchObject({ status: 'cancelled', cancellationReason: 'Customer asked' });

    const events = await bookingEvents(t.workspaceId, booking._id);
    expect(events.map((e) => e.eventType)).toEqual([
      'scheduling.booking.created',
      'scheduling.booking.confirmed',
      'scheduling.booking.rescheduled',
      'scheduling.booking.cancelled',
    ]);
    expect(events[2]!.changes).toEqual({ startAt: [startAt, at(startAt, 30)], endAt: [at(startAt, 45), at(startAt, 90)] });
    expect(events[3]!.changes).toEqual({ status: ['confirmed', 'cancelled'], cancellationReason: [null, 'Customer asked'] });
  });

  it('completes or marks as no-show a confirmed booking once it has started; refuses illegal moves with 409', async () => {
    const t = await tenant();
    // Booked yesterday for a time that has now started (the repository takes the clock as an argument).
    const started = quarterHourIn(-0.5);
    const yesterday = new Date(Date.now() - 24 * HOUR);
    const make = () =>
      createBooking(
        direct,
        t.tenant,
        { title: 'Call', customerId: t.customer._id, assigneeId: t.assigneeId, startAt: started, endAt: at(started, 15), timezone: 'UTC' },
        yesterday,
      );
    const a = await make();
    expectError(await t.api.post(`${BOOKINGS}/${a._id}/complete`), 409, 'CONFLICT'); // pending
    await t.api.post(`${BOOKINGS}/${a._id}/confirm`);
    expectError(await t.api.post(`${BOOKINGS}/${a._id}/confirm`), 409, 'CONFLICT');
    expect((await t.api.post(`${BOOKINGS}/${a._id}/complete`)).body.data.booking.status).toBe('completed');
    for (const action of ['complete', 'no-show', 'confirm'])
      expectError(await t.api.post(`${BOOKINGS}/${a._id}/${action}`), 409, 'CONFLICT');
    expectError(
      await t.api.post(`${BOOKINGS}/${a._id}/reschedule`, { startAt: quarterHourIn(30), endAt: quarterHourIn(31) }),
      409,
      'CONFLICT',
    );

    await t.api.post(`${BOOKINGS}/${a._id}/cancel`, {}).then((r) => expect(r.status).toBe(409));
    const b = await createBooking(
      direct,
      t.tenant,
      {
        title: 'Call',
        customerId: t.customer._id,
        assigneeId: await agentId(t.api),
        startAt: started,
        endAt: at(started, 15),
        timezone: 'UTC',
      },
      yesterday,
    );
    await t.api.post(`${BOOKINGS}/${b._id}/confirm`);
    expect((await t.api.post(`${BOOKINGS}/${b._id}/no-show`)).body.data.booking.status).toBe('no_show');
    expectError(await t.api.post(`${BOOKINGS}/${b._id}/complete`), 409, 'CONFLICT');

    // Not started yet: neither complete nor no-show.
    const future = (await t.book(quarterHourIn(5))).body.data.booking;
    await t.api.post(`${BOOKINGS}/${future._id}/confirm`);
    expectError(await t.api.post(`${BOOKINGS}/${future._id}/no-show`), 409, 'CONFLICT');
    expectError(await t.api.post(`${BOOKINGS}/${future._id}/complete`), 409, 'CONFLICT');
    const events = await bookingEvents(t.workspaceId, b._id);
    expect(events.map((e) => e.eventType)).toEqual([
      'scheduling.booking.created',
      'scheduling.booking.confirmed',
      'scheduling.booking.no_show',
    ]);
    expect((await bookingEvents(t.workspaceId, a._id)).at(-1)!.eventType).toBe('scheduling.booking.completed');
  });

  it('refuses bad times and unknown customers with 422', async () => {
    const t = await tenant();
    const start = quarterHourIn(24);
    const valid = { title: 'x', customerId: t.customer._id, assigneeId: t.assigneeId, startAt: start, endAt: at(start, 30) };
    for (const [body, paths] of [
      [{ startAt: at(start, 7), endAt: at(start, 30) }, ['startAt']],
      [{ startAt: start, endAt: start }, ['endAt']],
      [{ startAt: start, endAt: at(start, 9 * 60) }, ['endAt']],
      [{ startAt: quarterHourIn(-2), endAt: quarterHourIn(-1) }, ['startAt']],
      [{ customerId: 'c'.repeat(24) }, ['customerId']],
      [{ timezone: 'Nowhere/Land' }, ['timezone']],
    ] as const) {
      const res = await t.api.post(BOOKINGS, { ...valid, ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(
        res.body.error.details.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toEqual(paths);
    }
  });

  it('never double-books an assignee: of concurrent overlapping creates exactly one wins, and a cancellation frees the time', async () => {
    const t = await tenant();
    const start = quarterHourIn(72);
    // Ten requests, every one overlapping every other (each covers start+45..start+60).
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.book(at(start, (i % 4) * 15), 60 - (i % 4) * 15 + 15 * (i % 3))),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expectError(r, 409, 'CONFLICT');
      expect(r.body.error.message).toBe('The assignee already has a booking at that time');
    }
    const winner = won[0]!.body.data.booking;
    // Adjacent bookings touch without overlapping; another assignee is free at the same time.
    expect((await t.book(winner.endAt, 15)).status).toBe(201);
    expect((await t.book(winner.startAt, 30, { assigneeId: await agentId(t.api) })).status).toBe(201);
    expect((await t.api.post(`${BOOKINGS}/${winner._id}/cancel`, {})).status).toBe(200);
    expect((await t.book(winner.startAt, 15)).status).toBe(201);
  });

  it('never double-books through concurrent reschedules into the same time, and a booking may move over its own time', async () => {
    const t = await tenant();
    const base = quarterHourIn(96);
    const bookings = await Promise.all([0, 1, 2, 3].map(async (i) => (await t.book(at(base, i * 120), 60)).body.data.booking));
    const target = at(base, 600);
    const results = await Promise.all(
      bookings.map((b, i) =>
        t.api.post(`${BOOKINGS}/${b._id}/reschedule`, { startAt: at(target, i * 15), endAt: at(target, 60 + i * 15) }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'CONFLICT');
    // The losers kept their old times; the winner moves half an hour later, over its own quarter hours.
    const winner = results.find((r) => r.status === 200)!.body.data.booking;
    expect(
      (await t.api.post(`${BOOKINGS}/${winner._id}/reschedule`, { startAt: at(winner.startAt, 30), endAt: at(winner.endAt, 30) })).status,
    ).toBe(200);
    const list = (await t.api.get(`${BOOKINGS}?assigneeId=${t.assigneeId}`)).body.data.bookings;
    const intervals = list
      .map((b: { startAt: string; endAt: string }) => [Date.parse(b.startAt), Date.parse(b.endAt)])
      .sort((x: number[], y: number[]) => x[0]! - y[0]!);
    for (let i = 1; i < intervals.length; i++) expect(intervals[i][0]).toBeGreaterThanOrEqual(intervals[i - 1][1]);
    expect(list).toHaveLength(4);
  });

  it('lists by start time, filtered by assignee, customer, status and a time range, with exact totals', async () => {
    const t = await tenant();
    const other = await agentId(t.api);
    const otherCustomer = await create(t.api, CUSTOMERS, { name: 'Grace' }, 'customer');
    const start = quarterHourIn(30);
    const b3 = (await t.book(at(start, 120))).body.data.booking;
    const b1 = (await t.book(start)).body.data.booking;
    const b2 = (await t.book(at(start, 60), 30, { assigneeId: other, customerId: otherCustomer._id })).body.data.booking;
    await t.api.post(`${BOOKINGS}/${b3._id}/confirm`);
    const ids = async (q: string) => {
      const res = await t.api.get(`${BOOKINGS}${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.bookings.map((b: { _id: string }) => b._id), total: res.body.data.pagination.total };
    };
    expect(await ids('')).toEqual({ ids: [b1._id, b2._id, b3._id], total: 3 });
    expect(await ids(`?assigneeId=${t.assigneeId}`)).toEqual({ ids: [b1._id, b3._id], total: 2 });
    expect(await ids(`?assigneeId=${t.assigneeId}&status=confirmed`)).toEqual({ ids: [b3._id], total: 1 });
    expect(await ids(`?customerId=${otherCustomer._id}`)).toEqual({ ids: [b2._id], total: 1 });
    expect(await ids('?status=pending')).toEqual({ ids: [b1._id, b2._id], total: 2 });
    expect(await ids(`?from=${encodeURIComponent(at(start, 30))}&to=${encodeURIComponent(at(start, 120))}`)).toEqual({
      ids: [b2._id],
      total: 1,
    });
    expect(await ids(`?assigneeId=${t.assigneeId}&from=${encodeURIComponent(at(start, 1))}`)).toEqual({ ids: [b3._id], total: 1 });
    expectError(await t.api.get(`${BOOKINGS}?customerId=${t.customer._id}&status=pending`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${BOOKINGS}?from=${encodeURIComponent(start)}&to=${encodeURIComponent(start)}`), 422, 'VALIDATION_ERROR');
  });

  it('answers 404 for another workspace’s or the other mode’s booking', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = (await other.book(quarterHourIn(30))).body.data.booking;
    expectError(await t.api.get(`${BOOKINGS}/${theirs._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.get(`${BOOKINGS}/${theirs._id}/ics`), 404, 'NOT_FOUND');
    expectError(await t.api.post(`${BOOKINGS}/${theirs._id}/cancel`, {}), 404, 'NOT_FOUND');
    expectError(await (await env.liveMode(other)).api.get(`${BOOKINGS}/${theirs._id}`), 404, 'NOT_FOUND');
    expect((await other.api.get(`${BOOKINGS}/${theirs._id}`)).body.data.booking.status).toBe('pending');
  });
});

describe('availability', () => {
  it('gives business hours in the workspace timezone minus bookings, across a daylight-saving change', async () => {
    const t = await tenant();
    // Europe/Berlin leaves CET (+01:00) for CEST (+02:00) on Sunday 28 March 2027.
    await t.api.patch('/api/v1/workspace', {
      timezone: 'Europe/Berlin',
      businessHours: {
        friday: [{ start: '09:00', end: '11:00' }],
        monday: [
          { start: '09:00', end: '10:00' },
          { start: '14:00', end: '15:00' },
        ],
        saturday: [],
        sunday: [{ start: '09:00', end: '09:30' }],
      },
    });
    // Monday 09:15–09:30 Berlin (07:15Z in CEST) is booked.
    expect((await t.book('2027-03-29T07:15:00.000Z', 15)).status).toBe(201);
    const res = await t.api.get(
      `${AVAILABILITY}?assigneeId=${t.assigneeId}&from=2027-03-26T00:00:00Z&to=2027-03-30T00:00:00Z&durationMinutes=30`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const slots = res.body.data.availability.slots.map((s: { startAt: string }) => s.startAt.slice(0, 16));
    expect(res.body.data.availability).toMatchObject({ assigneeId: t.assigneeId, timezone: 'Europe/Berlin', durationMinutes: 30 });
    expect(slots).toEqual([
      // Friday 26th, CET: 09:00–11:00 local is 08:00–10:00Z.
      '2027-03-26T08:00',
      '2027-03-26T08:15',
      '2027-03-26T08:30',
      '2027-03-26T08:45',
      '2027-03-26T09:00',
      '2027-03-26T09:15',
      '2027-03-26T09:30',
      // Sunday 28th, the change day, already CEST: 09:00 local is 07:00Z.
      '2027-03-28T07:00',
      // Monday 29th, CEST: 09:00–10:00 minus 09:15–09:30, and 14:00–15:00 local.
      '2027-03-29T07:30',
      '2027-03-29T12:00',
      '2027-03-29T12:15',
      '2027-03-29T12:30',
    ]);
    expect(res.body.data.availability.slots[0].endAt).toBe('2027-03-26T08:30:00.000Z');
    // Autumn: the last Sunday of October 2027 (31st) returns to CET, 09:00 local is 08:00Z again.
    const autumn = await t.api.get(
      `${AVAILABILITY}?assigneeId=${t.assigneeId}&from=2027-10-30T00:00:00Z&to=2027-11-01T00:00:00Z&durationMinutes=30`,
    );
    expect(autumn.body.data.availability.slots.map((s: { startAt: string }) => s.startAt)).toEqual(['2027-10-31T08:00:00.000Z']);
  });

  it('refuses a non-member assignee, a reversed or too long range and a bad duration with 422', async () => {
    const t = await tenant();
    const q = (s: string) => t.api.get(`${AVAILABILITY}?${s}`);
    const range = 'from=2027-01-04T00:00:00Z&to=2027-01-05T00:00:00Z';
    expectError(await q(`assigneeId=${'a'.repeat(24)}&${range}`), 422, 'VALIDATION_ERROR');
    expectError(await q(`assigneeId=${t.assigneeId}&from=2027-01-05T00:00:00Z&to=2027-01-04T00:00:00Z`), 422, 'VALIDATION_ERROR');
    expectError(await q(`assigneeId=${t.assigneeId}&from=2027-01-01T00:00:00Z&to=2027-03-01T00:00:00Z`), 422, 'VALIDATION_ERROR');
    expectError(await q(`assigneeId=${t.assigneeId}&${range}&durationMinutes=20`), 422, 'VALIDATION_ERROR');
    expect((await q(`assigneeId=${t.assigneeId}&${range}`)).body.data.availability.slots).toHaveLength(31); // Monday 09:00–17:00 UTC: 30-minute slots every quarter hour, the last at 16:30
  });
});

describe('ics', () => {
  it('returns an iCalendar file that an independent parser (ical.js) reads back as the booking, its SEQUENCE rising with each change', async () => {
    const t = await tenant();
    const startAt = quarterHourIn(50);
    const booking = (await t.book(startAt, 45, { title: 'Demo, with; punctuation', location: 'Room 1', notes: 'Line one\nLine two' })).body
      .data.booking;
    const res = await t.api.get(`${BOOKINGS}/${booking._id}/ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="booking-${booking._id}.ics"`);
    const calendar = new ICAL.Component(ICAL.parse(res.body as string));
    const events = calendar.getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]!);
    expect(event.uid).toBe(`${booking._id}@parley`);
    expect(event.summary).toBe('Demo, with; punctuation');
    expect(event.location).toBe('Room 1');
    expect(event.description).toBe('Line one\nLine two');
    expect(event.startDate.toJSDate().toISOString()).toBe(startAt);
    expect(event.endDate.toJSDate().toISOString()).toBe(at(startAt, 45));
    expect(events[0]!.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(event.sequence).toBe(0);
    const later = quarterHourIn(60);
    expect((await t.api.post(`${BOOKINGS}/${booking._id}/reschedule`, { startAt: later, endAt: at(later, 45) })).status).toBe(200);
    const moved = new ICAL.Event(
      new ICAL.Component(ICAL.parse((await t.api.get(`${BOOKINGS}/${booking._id}/ics`)).body as string)).getFirstSubcomponent('vevent')!,
    );
    expect(moved.startDate.toJSDate().toISOString()).toBe(later);
    expect(moved.sequence).toBeGreaterThan(event.sequence);
    await t.api.post(`${BOOKINGS}/${booking._id}/cancel`, {});
    const cancelled = new ICAL.Component(ICAL.parse((await t.api.get(`${BOOKINGS}/${booking._id}/ics`)).body as string));
    expect(cancelled.getFirstSubcomponent('vevent')!.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(new ICAL.Event(cancelled.getFirstSubcomponent('vevent')!).sequence).toBeGreaterThan(moved.sequence);
  });
});

describe('reminders', () => {
  it('sends the 24 h and the 1 h reminder by timer, each exactly once, and none for a cancelled booking', async () => {
    const t = await tenant();
    const startAt = quarterHourIn(2);
    // Booked 25 h before its start: both reminders were ahead then; the 24 h one is due now, the 1 h one not yet.
    const madeAt = new Date(Date.parse(startAt) - 25 * HOUR);
    const input = { title: 'Call', customerId: t.customer._id, assigneeId: t.assigneeId, startAt, endAt: at(startAt, 30), timezone: 'UTC' };
    const booking = await createBooking(direct, t.tenant, input, madeAt);
    const cancelled = await createBooking(direct, t.tenant, { ...input, assigneeId: await agentId(t.api) }, madeAt);
    await t.api.post(`${BOOKINGS}/${cancelled._id}/cancel`, {});

    await Promise.all([remindBookings(), remindBookings(), remindBookings()]);
    await remindBookings();
    const reminders = async (id: string) =>
      (await outboxEvents(t.workspaceId, 'scheduling.booking.reminder'))
        .filter((e) => (e.data.booking as { _id: string })._id === id)
        .map((e) => e.data.reminder);
    expect(await reminders(booking._id)).toEqual(['24h']);
    // An hour before the start (the timer's clock, moved forward): the 1 h reminder, once, however often it runs.
    const hourBefore = new Date(Date.parse(startAt) - HOUR + 1000);
    expect(await sendDueReminders(direct, t.tenant, booking._id, hourBefore)).toBe(true);
    expect(await sendDueReminders(direct, t.tenant, booking._id, hourBefore)).toBe(false);
    expect(await reminders(booking._id)).toEqual(['24h', '1h']);
    expect(await reminders(cancelled._id)).toEqual([]);
  });
});
