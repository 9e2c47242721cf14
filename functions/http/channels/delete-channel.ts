import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { deleted } from '../../../shared/views/deletion';
import { deleteChannel } from '../../../shared/channels/account-records';
import { IdParams } from '../../../shared/http/params';

/** Replies on conversations that named the account fail with `channel_deleted` from then on. */
export const handler = route(
  { scope: 'channels:write', params: IdParams, response: z.strictObject({ channel: deleted }) },
  async ({ params, tenant, now }) => {
    await deleteChannel(tenant, params.id, now);
    return { channel: { _id: params.id, deleted: true as const } };
  },
);
