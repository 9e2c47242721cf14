import { route } from '../../../shared/http/route';
import { transitionBooking } from '../../../shared/data/bookings';
import { markNoShow } from '../../../shared/domain/scheduling/booking';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:write', params: IdParams }, async ({ params, tenant, now }) => ({
  booking: await transitionBooking(tenant, params.id, (b) => markNoShow(b, now), now),
}));
