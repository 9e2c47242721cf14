import { route } from '../../../shared/http/route';
import { ScheduleBroadcast } from '../../../shared/domain/broadcasts/broadcast';
import { scheduleBroadcast } from '../../../shared/broadcasts/service';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: BroadcastParams, body: ScheduleBroadcast }, async ({ params, body, tenant, now }) => ({
  broadcast: await scheduleBroadcast(tenant, params.id, body.at, now),
}));
