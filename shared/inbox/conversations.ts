import type { Tenant } from '../domain/auth/tenant';
import { conversationChannelOf } from '../domain/channels/account';
import type { Change, Channel, Conversation, NewConversation, Status } from '../domain/inbox/conversation';
import { assign, type ConversationEdit, edit, unassign } from '../domain/inbox/edits';
import { changeStatus } from '../domain/inbox/state-machine';
import { getChannel } from '../data/channels';
import * as conversations from '../data/conversations';

export { deleteConversation, requireConversation } from '../data/conversations';
export { listConversations } from '../data/conversations-lists';

/** Without a `channel`, the conversation is filed under its account's kind when `channelId` names one, else under `api`. */
export const createConversation = async (
  tenant: Tenant,
  input: Omit<NewConversation, 'channel'> & { channel?: Channel },
  now: Date,
): Promise<Conversation> => {
  // An account's type never changes, so reading it first is safe; its existence is checked in the create's transaction.
  const account = input.channel === undefined && input.channelId ? await getChannel(tenant, input.channelId) : undefined;
  const channel = input.channel ?? (account ? conversationChannelOf(account.type) : 'api');
  return conversations.createConversation(tenant, { ...input, channel }, now);
};

const applyRule = (tenant: Tenant, id: string, rule: (c: Conversation) => Change, now: Date): Promise<Conversation> =>
  conversations.mutateConversation(tenant, id, (c) => ({ change: rule(c) }), now);

export const editConversation = (tenant: Tenant, id: string, patch: ConversationEdit, now: Date): Promise<Conversation> =>
  applyRule(tenant, id, (c) => edit(c, patch, now), now);

export const assignConversation = (tenant: Tenant, id: string, assigneeId: string, now: Date): Promise<Conversation> =>
  applyRule(tenant, id, (c) => assign(c, assigneeId, now), now);

export const unassignConversation = (tenant: Tenant, id: string, now: Date): Promise<Conversation> =>
  applyRule(tenant, id, (c) => unassign(c, now), now);

/** Moves the conversation to `status` if its current status allows it; a snooze needs `snoozedUntil`. */
export const changeConversationStatus = (
  tenant: Tenant,
  id: string,
  { status, snoozedUntil }: { status: Status; snoozedUntil?: string },
  now: Date,
): Promise<Conversation> => applyRule(tenant, id, (c) => changeStatus(c, status, { snoozedUntil, now }), now);
