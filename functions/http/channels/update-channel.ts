import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { account } from '../../../shared/views/channels';
import { UpdateChannel } from '../../../shared/domain/channels/account';
import { updateChannel } from '../../../shared/channels/accounts';
import { IdParams } from '../../../shared/http/params';
import { needsSecretBox } from '../../../shared/secrets/box';

needsSecretBox();

export const handler = route(
  { scope: 'channels:write', params: IdParams, body: UpdateChannel, response: z.strictObject({ channel: account }) },
  async ({ params, body, tenant, now, unit }) => ({ channel: await updateChannel(unit, tenant, params.id, body, now) }),
);
