import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { account } from '../../../shared/views/channels';
import { requireChannel } from '../../../shared/channels/account-records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'channels:read', params: IdParams, response: z.strictObject({ channel: account }) },
  async ({ params, tenant }) => ({
    channel: await requireChannel(tenant, params.id),
  }),
);
