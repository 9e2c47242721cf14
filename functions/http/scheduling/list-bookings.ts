import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { booking } from '../../../shared/views/scheduling';
import { paginationOf } from '../../../shared/http/pagination';
import { listBookings } from '../../../shared/scheduling/bookings';
import { BookingFilters } from './schemas';

const utc = (t: string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());

export const handler = route(
  { scope: 'inbox:read', query: BookingFilters, response: listOf('bookings', booking) },
  async ({ query, tenant }) => {
    const { page, limit, cursor, from, to, ...filters } = query;
    const { bookings, total, nextCursor } = await listBookings(
      tenant,
      { ...filters, from: utc(from), to: utc(to) },
      { page, limit, cursor },
    );
    return { bookings, pagination: paginationOf(total, query, nextCursor) };
  },
);
