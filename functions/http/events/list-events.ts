import { route } from '../../../shared/http/route';
import { paginationOf } from '../../../shared/http/pagination';
import { listEvents } from '../../../shared/realtime/events-log';
import { listOf } from '../../../shared/views/common';
import { event } from '../../../shared/views/events';
import { EventsQuery, typesOf } from './schemas';

/** Any valid token may list; it sees the events of the categories whose read scope it holds. */
export const handler = route(
  { scope: null, query: EventsQuery, response: listOf('events', event) },
  async ({ query, tenant, token, now }) => {
    const { events, total, nextCursor } = await listEvents(tenant, token.scopes, { ...query, types: typesOf(query.types) }, query, now);
    return { events, pagination: paginationOf(total, query, nextCursor) };
  },
);
