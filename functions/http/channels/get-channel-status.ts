import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { accountStatus } from '../../../shared/views/channels';
import { requireChannel } from '../../../shared/channels/account-records';
import { IdParams } from '../../../shared/http/params';

/** The account's connection state alone: what a status page polls. */
export const handler = route(
  { scope: 'channels:read', params: IdParams, response: z.strictObject({ status: accountStatus }) },
  async ({ params, tenant }) => {
    const { _id, type, status, lastError, updatedAt } = await requireChannel(tenant, params.id);
    return { status: { channelId: _id, type, status, canSend: status === 'connected', lastError, updatedAt } };
  },
);
