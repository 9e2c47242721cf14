import type { Tenant } from '../domain/auth/tenant';
import type { NewMessage } from '../domain/inbox/message';
import { listMessages, postMessage, type Posted } from '../data/messages';
import { receiveIncoming, type Incoming } from '../data/messages-incoming';
import { resolveAttachments } from '../files/files';

export { listMessages };

type WithRefs<T> = Omit<T, 'attachments'> & { attachments?: { fileId: string }[] };

/** A reply or note: the files it names must be ready files of this tenant (404 otherwise), bound to the conversation with it. */
export const postReply = async (tenant: Tenant, conversationId: string, input: WithRefs<NewMessage>, now: Date): Promise<Posted> =>
  postMessage(
    tenant,
    conversationId,
    { ...input, attachments: await resolveAttachments(tenant, input.attachments, conversationId, now) },
    now,
  );

/** A customer's message through the API, with the files it names resolved as for a reply. */
export const receiveMessage = async (tenant: Tenant, input: WithRefs<Incoming>, now: Date) =>
  receiveIncoming(tenant, { ...input, attachments: await resolveAttachments(tenant, input.attachments, input.conversationId, now) }, now);
