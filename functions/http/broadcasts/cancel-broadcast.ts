import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { cancelBroadcast } from '../../../shared/broadcasts/service';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, response: z.strictObject({ broadcast: campaign }) },
  async ({ params, tenant, now, unit }) => ({
    broadcast: await cancelBroadcast(unit, tenant, params.id, now),
  }),
);
