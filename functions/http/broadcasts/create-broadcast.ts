import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { CreateBroadcast } from '../../../shared/domain/broadcasts/broadcast';
import { draftBroadcast } from '../../../shared/broadcasts/service';

export const handler = route(
  { scope: 'channels:write', body: CreateBroadcast, status: 201, response: z.strictObject({ broadcast: campaign }) },
  async ({ body, tenant, now, unit }) => ({
    broadcast: await draftBroadcast(unit, tenant, body, now),
  }),
);
