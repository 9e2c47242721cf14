import { route } from '../../../shared/http/route';
import { sendBroadcast } from '../../../shared/broadcasts/service';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: BroadcastParams, status: 202 }, async ({ params, tenant, now }) => ({
  broadcast: await sendBroadcast(tenant, params.id, now),
}));
