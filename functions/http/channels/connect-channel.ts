import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { account } from '../../../shared/views/channels';
import { changeChannelStatus } from '../../../shared/channels/account-records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:write', params: IdParams, response: z.strictObject({ channel: account }) },
  async ({ params, tenant, now, unit }) => ({
    channel: await changeChannelStatus(unit, tenant, params.id, 'connect', now),
  }),
);
