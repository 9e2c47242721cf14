import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { account } from '../../../shared/views/channels';
import { deleteChannel } from '../../../shared/channels/account-records';
import { IdParams } from '../../../shared/http/params';

/** Replies on conversations that named the account fail with `channel_deleted` from then on. */
export const handler = route(
  { scope: 'channels:write', params: IdParams, response: deletion('channel', account) },
  async ({ params, tenant, now, unit }) => ({ channel: await deleteChannel(unit, tenant, params.id, now), deleted: true as const }),
);
