import { route } from '../../../shared/http/route';
import { transitionBooking } from '../../../shared/data/bookings';
import { reschedule } from '../../../shared/domain/scheduling/booking';
import { IdParams, RescheduleBooking } from './schemas';

export const handler = route({ scope: 'inbox:write', params: IdParams, body: RescheduleBooking }, async ({ params, body, tenant, now }) => ({
  booking: await transitionBooking(tenant, params.id, (b) => reschedule(b, body, now), now),
}));
