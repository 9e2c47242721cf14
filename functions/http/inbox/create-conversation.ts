import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { createConversation } from '../../../shared/data/conversations';
import { getChannel } from '../../../shared/data/channels';
import { conversationChannelOf } from '../../../shared/domain/channels/account';
import { CreateConversation } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: CreateConversation, status: 201, response: z.strictObject({ conversation }) },
  async ({ body, tenant, now }) => {
    // An account's type never changes, so reading it first is safe; its existence is checked in the create's transaction.
    const account = body.channel === undefined && body.channelId ? await getChannel(tenant, body.channelId) : undefined;
    const channel = body.channel ?? (account ? conversationChannelOf(account.type) : 'api');
    return { conversation: await createConversation(tenant, { ...body, channel }, now) };
  },
);
