import { tenantParts, type Tenant } from '../domain/auth/tenant';
import type { Booking, NewBooking } from '../domain/scheduling/booking';
import { createBooking as storeBooking, getVersionedBooking } from '../data/bookings';
import { getWorkspace } from '../data/workspaces';
import { bookingCalendar } from './ics';

export { availability } from '../data/availability';
export { getBooking, listBookings, transitionBooking } from '../data/bookings';

const workspaceOf = (tenant: Tenant) => getWorkspace(tenantParts(tenant).workspaceId);

/** Creates a pending booking, in the workspace's timezone unless the request names one. */
export const createBooking = async (
  tenant: Tenant,
  input: Omit<NewBooking, 'timezone'> & Partial<Pick<NewBooking, 'timezone'>>,
  now: Date,
): Promise<Booking> => {
  const timezone = input.timezone ?? (await workspaceOf(tenant))!.timezone;
  return storeBooking(tenant, { ...input, timezone }, now);
};

/** The booking as an iCalendar file named after its workspace (see `bookingCalendar`). */
export const bookingIcs = async (tenant: Tenant, id: string): Promise<string> => {
  const [{ booking, version }, workspace] = await Promise.all([getVersionedBooking(tenant, id), workspaceOf(tenant)]);
  return bookingCalendar(booking, version, workspace!.name);
};
