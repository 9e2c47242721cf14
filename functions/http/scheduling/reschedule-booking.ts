import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { transitionBooking } from '../../../shared/scheduling/bookings';
import { reschedule } from '../../../shared/domain/scheduling/booking';
import { IdParams, RescheduleBooking } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: RescheduleBooking, response: z.strictObject({ booking }) },
  async ({ params, body, tenant, now, unit }) => ({
    booking: await transitionBooking(unit, tenant, params.id, (b) => reschedule(b, body, now), now),
  }),
);
