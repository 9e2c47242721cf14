import { route } from '../../../shared/http/route';
import { cancelBroadcast } from '../../../shared/broadcasts/service';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: BroadcastParams }, async ({ params, tenant, now }) => ({
  broadcast: await cancelBroadcast(tenant, params.id, now),
}));
