import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { transitionBooking } from '../../../shared/scheduling/bookings';
import { cancel } from '../../../shared/domain/scheduling/booking';
import { CancelBooking, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: CancelBooking, response: z.strictObject({ booking }) },
  async ({ params, body, tenant, now, unit }) => ({
    booking: await transitionBooking(unit, tenant, params.id, (b) => cancel(b, body.reason, now), now),
  }),
);
