import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { deleted } from '../../../shared/views/deletion';
import { deleteSubscription } from '../../../shared/webhooks/subscriptions';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'webhooks:write', params: IdParams, response: z.strictObject({ subscription: deleted }) },
  async ({ params, tenant }) => {
    await deleteSubscription(tenant, params.id);
    return { subscription: { _id: params.id, deleted: true as const } };
  },
);
