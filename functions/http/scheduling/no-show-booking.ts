import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { transitionBooking } from '../../../shared/scheduling/bookings';
import { markNoShow } from '../../../shared/domain/scheduling/booking';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, response: z.strictObject({ booking }) },
  async ({ params, tenant, now, unit }) => ({
    booking: await transitionBooking(unit, tenant, params.id, (b) => markNoShow(b, now), now),
  }),
);
