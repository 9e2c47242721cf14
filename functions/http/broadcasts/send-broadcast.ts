import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { sendBroadcast } from '../../../shared/broadcasts/service';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, status: 202, response: z.strictObject({ broadcast: campaign }) },
  async ({ params, tenant, now, unit }) => ({
    broadcast: await sendBroadcast(unit, tenant, params.id, now),
  }),
);
