import { route } from '../../../shared/http/route';
import { FileResponse } from '../../../shared/http/file-response';
import { bookingIcs } from '../../../shared/scheduling/bookings';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:read', params: IdParams, produces: 'text/calendar' }, async ({ params, tenant }) => {
  const calendar = await bookingIcs(tenant, params.id);
  return new FileResponse('text/calendar; charset=utf-8', `booking-${params.id}.ics`, calendar);
});
