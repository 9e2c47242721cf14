import { route } from '../../../shared/http/route';
import { UpdateBroadcast } from '../../../shared/domain/broadcasts/broadcast';
import { editBroadcast } from '../../../shared/broadcasts/service';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: BroadcastParams, body: UpdateBroadcast }, async ({ params, body, tenant, now }) => ({
  broadcast: await editBroadcast(tenant, params.id, body, now),
}));
