import { route } from '../../../shared/http/route';
import { FileResponse } from '../../../shared/http/file-response';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { bookingCalendar } from '../../../shared/scheduling/ics';
import { getVersionedBooking } from '../../../shared/data/bookings';
import { getWorkspace } from '../../../shared/data/workspaces';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:read', params: IdParams, produces: 'text/calendar' }, async ({ params, tenant }) => {
  const [{ booking, version }, workspace] = await Promise.all([
    getVersionedBooking(tenant, params.id),
    getWorkspace(tenantParts(tenant).workspaceId),
  ]);
  return new FileResponse('text/calendar; charset=utf-8', `booking-${booking._id}.ics`, bookingCalendar(booking, version, workspace!.name));
});
