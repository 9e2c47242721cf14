import * as z from 'zod';
import { DateTime } from '../../../shared/domain/dates';
import { ListQuery } from '../../../shared/http/pagination';
import { queryInteger } from '../../../shared/http/query-integer';
import { TimeZone } from '../../../shared/domain/auth/workspace';
import { BookingStatus, MAX_DURATION_MINUTES, SLOT_MINUTES } from '../../../shared/domain/scheduling/booking';
import { MAX_RANGE_DAYS } from '../../../shared/domain/scheduling/availability';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

const Text = (max: number) => z.string().trim().min(1).max(max);

export const CreateBooking = /* @__PURE__ */ built(() =>
  z.strictObject({
    title: Text(200),
    customerId: ObjectId,
    assigneeId: ObjectId,
    startAt: DateTime,
    endAt: DateTime,
    timezone: TimeZone.optional(),
    location: Text(500).nullable().optional(),
    notes: Text(5000).nullable().optional(),
  }),
);
export const RescheduleBooking = /* @__PURE__ */ built(() =>
  z.strictObject({ startAt: DateTime, endAt: DateTime, assigneeId: ObjectId.optional() }),
);
export const CancelBooking = /* @__PURE__ */ built(() => z.strictObject({ reason: Text(500).optional() }));

const inOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to);

export const BookingFilters = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      ...ListQuery.shape,
      assigneeId: ObjectId.optional(),
      customerId: ObjectId.optional(),
      status: BookingStatus.optional(),
      from: DateTime.optional(),
      to: DateTime.optional(),
    })
    .refine(inOrder, { message: 'Must be after from', path: ['to'] }),
);

export const AvailabilityQuery = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      assigneeId: ObjectId,
      from: DateTime,
      to: DateTime,
      durationMinutes: queryInteger(z.number().int().multipleOf(SLOT_MINUTES).min(SLOT_MINUTES).max(MAX_DURATION_MINUTES)).default(30),
    })
    .refine(inOrder, { message: 'Must be after from', path: ['to'] })
    .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= MAX_RANGE_DAYS * 86_400_000, {
      message: `The range spans at most ${MAX_RANGE_DAYS} days`,
      path: ['to'],
    }),
);
