import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { ScheduleBroadcast } from '../../../shared/domain/broadcasts/broadcast';
import { scheduleBroadcast } from '../../../shared/broadcasts/service';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, body: ScheduleBroadcast, response: z.strictObject({ broadcast: campaign }) },
  async ({ params, body, tenant, now, unit }) => ({
    broadcast: await scheduleBroadcast(unit, tenant, params.id, body.at, now),
  }),
);
