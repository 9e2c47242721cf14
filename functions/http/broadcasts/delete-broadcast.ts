import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { deleted } from '../../../shared/views/deletion';
import { deleteBroadcast } from '../../../shared/broadcasts/records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, response: z.strictObject({ broadcast: deleted }), errors: ['CONFLICT'] },
  async ({ params, tenant }) => {
    await deleteBroadcast(tenant, params.id);
    return { broadcast: { _id: params.id, deleted: true as const } };
  },
);
