import { route } from '../../../shared/http/route';
import { recipient } from '../../../shared/views/broadcasts';
import { listOf } from '../../../shared/views/common';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listBroadcastRecipients } from '../../../shared/broadcasts/records';
import { IdParams } from '../../../shared/http/params';

/** Every recipient with its status, in customer-id order; the total is the broadcast's recipient count. */
export const handler = route(
  { scope: 'channels:read', params: IdParams, query: ListQuery, response: listOf('recipients', recipient) },
  async ({ params, query, tenant }) => {
    const { recipients, total, nextCursor } = await listBroadcastRecipients(tenant, params.id, query);
    return { recipients, pagination: paginationOf(total, query, nextCursor) };
  },
);
