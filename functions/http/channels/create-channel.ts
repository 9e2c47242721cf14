import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { accountWithSecret } from '../../../shared/views/channels';
import { CreateChannel } from '../../../shared/domain/channels/account';
import { createChannel } from '../../../shared/channels/accounts';
import { needsSecretBox } from '../../../shared/secrets/box';

needsSecretBox();

/** The signing secret is returned here, once; other secrets never are. */
export const handler = route(
  { scope: 'channels:write', body: CreateChannel, status: 201, response: z.strictObject({ channel: accountWithSecret }) },
  async ({ body, tenant, now, unit }) => {
    const { account, signingSecret } = await createChannel(unit, tenant, body, now);
    return { channel: { ...account, signingSecret } };
  },
);
