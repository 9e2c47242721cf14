import * as z from 'zod';
import { BookingStatus, type Booking } from '../domain/scheduling/booking';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const booking = /* @__PURE__ */ built(() =>
  exactly<Booking>()(
    z.strictObject({
      _id: id,
      title: z.string(),
      customerId: id,
      assigneeId: id,
      startAt: time,
      endAt: time,
      timezone: z.string(),
      location: z.string().nullable(),
      notes: z.string().nullable(),
      status: BookingStatus,
      cancellationReason: z.string().nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Booking' }),
);

/** An assignee's free slots in a range: business hours in the workspace's timezone minus bookings. */
export const availability = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      assigneeId: id,
      timezone: z.string(),
      durationMinutes: z.number().int().min(1),
      from: time,
      to: time,
      slots: z.array(z.strictObject({ startAt: time, endAt: time })),
    })
    .meta({ id: 'Availability' }),
);
