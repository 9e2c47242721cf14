import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { subscription } from '../../../shared/views/webhooks';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { deleteSubscription } from '../../../shared/webhooks/subscription-records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'webhooks:write', params: IdParams, response: deletion('subscription', subscription) },
  async ({ params, tenant, unit }) => ({
    subscription: publicSubscription(await deleteSubscription(unit, tenant, params.id)),
    deleted: true as const,
  }),
);
