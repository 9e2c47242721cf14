import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { requireBroadcast } from '../../../shared/broadcasts/records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:read', params: IdParams, response: z.strictObject({ broadcast: campaign }) },
  async ({ params, tenant }) => ({
    broadcast: (await requireBroadcast(tenant, params.id)).broadcast,
  }),
);
