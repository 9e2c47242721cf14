/** Broadcasts as stored, read or deleted: apart from `service.ts`, which enqueues, so these functions carry no SQS client. */
import type { Tenant } from '../domain/auth/tenant';
import type { PageRequest } from '../data/query';
import { requireBroadcast } from '../data/broadcasts';
import { listRecipients } from '../data/broadcast-recipients';

export { deleteBroadcast, listBroadcasts, requireBroadcast } from '../data/broadcasts';

/** A page of the broadcast's recipients, in customer-id order; the total is its recipient count. */
export const listBroadcastRecipients = async (tenant: Tenant, broadcastId: string, page: PageRequest) => {
  const { broadcast } = await requireBroadcast(tenant, broadcastId);
  const { recipients, nextCursor } = await listRecipients(tenant, broadcastId, page);
  return { recipients, total: broadcast.stats.recipients, nextCursor };
};
