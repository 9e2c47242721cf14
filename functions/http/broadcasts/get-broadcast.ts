import { route } from '../../../shared/http/route';
import { requireBroadcast } from '../../../shared/data/broadcasts';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:read', params: BroadcastParams }, async ({ params, tenant }) => ({
  broadcast: (await requireBroadcast(tenant, params.id)).broadcast,
}));
