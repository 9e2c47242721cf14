import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { availability as availabilityView } from '../../../shared/views/scheduling';
import { availability } from '../../../shared/scheduling/availability';
import { AvailabilityQuery } from './schemas';

export const handler = route(
  { scope: 'inbox:read', query: AvailabilityQuery, response: z.strictObject({ availability: availabilityView }) },
  async ({ query, tenant, now }) => ({
    availability: await availability(tenant, query, now),
  }),
);
