import { route } from '../../../shared/http/route';
import { recipient } from '../../../shared/views/broadcasts';
import { listOf } from '../../../shared/views/common';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { requireBroadcast } from '../../../shared/data/broadcasts';
import { listRecipients } from '../../../shared/data/broadcast-recipients';
import { BroadcastParams } from './schemas';

/** Every recipient with its status, in customer-id order; the total is the broadcast's recipient count. */
export const handler = route(
  { scope: 'channels:read', params: BroadcastParams, query: ListQuery, response: listOf('recipients', recipient) },
  async ({ params, query, tenant }) => {
    const { broadcast } = await requireBroadcast(tenant, params.id);
    const { recipients, nextCursor } = await listRecipients(tenant, params.id, query);
    return { recipients, pagination: paginationOf(broadcast.stats.recipients, query, nextCursor) };
  },
);
