import { route } from '../../../shared/http/route';
import { deleteBroadcast } from '../../../shared/data/broadcasts';
import { BroadcastParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: BroadcastParams, errors: ['CONFLICT'] }, async ({ params, tenant }) => {
  await deleteBroadcast(tenant, params.id);
  return { broadcast: { _id: params.id, deleted: true } };
});
