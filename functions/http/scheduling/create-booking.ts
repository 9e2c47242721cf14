import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { createBooking } from '../../../shared/scheduling/bookings';
import { CreateBooking } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: CreateBooking, status: 201, response: z.strictObject({ booking }) },
  async ({ body, tenant, now, unit }) => ({
    booking: await createBooking(unit, tenant, body, now),
  }),
);
