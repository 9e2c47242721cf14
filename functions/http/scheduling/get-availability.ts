import { route } from '../../../shared/http/route';
import { availability } from '../../../shared/data/availability';
import { AvailabilityQuery } from './schemas';

export const handler = route({ scope: 'inbox:read', query: AvailabilityQuery }, async ({ query, tenant, now }) => ({
  availability: await availability(tenant, query, now),
}));
