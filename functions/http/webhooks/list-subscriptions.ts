import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { subscription } from '../../../shared/views/webhooks';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { listSubscriptions } from '../../../shared/webhooks/subscription-records';

export const handler = route(
  { scope: 'webhooks:read', query: ListQuery, response: listOf('subscriptions', subscription) },
  async ({ query, tenant }) => {
    const { subscriptions, total, nextCursor } = await listSubscriptions(tenant, query);
    return { subscriptions: subscriptions.map(publicSubscription), pagination: paginationOf(total, query, nextCursor) };
  },
);
