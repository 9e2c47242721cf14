import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { getBooking } from '../../../shared/scheduling/bookings';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:read', params: IdParams, response: z.strictObject({ booking }) },
  async ({ params, tenant }) => ({
    booking: await getBooking(tenant, params.id),
  }),
);
