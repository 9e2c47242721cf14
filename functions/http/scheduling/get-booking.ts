import { route } from '../../../shared/http/route';
import { getBooking } from '../../../shared/data/bookings';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:read', params: IdParams }, async ({ params, tenant }) => ({
  booking: await getBooking(tenant, params.id),
}));
