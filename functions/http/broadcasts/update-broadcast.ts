import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { UpdateBroadcast } from '../../../shared/domain/broadcasts/broadcast';
import { editBroadcast } from '../../../shared/broadcasts/service';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, body: UpdateBroadcast, response: z.strictObject({ broadcast: campaign }) },
  async ({ params, body, tenant, now, unit }) => ({
    broadcast: await editBroadcast(unit, tenant, params.id, body, now),
  }),
);
