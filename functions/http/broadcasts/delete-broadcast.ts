import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { campaign } from '../../../shared/views/broadcasts';
import { deleteBroadcast } from '../../../shared/broadcasts/records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, response: deletion('broadcast', campaign), errors: ['CONFLICT'] },
  async ({ params, tenant, unit }) => ({ broadcast: await deleteBroadcast(unit, tenant, params.id), deleted: true as const }),
);
