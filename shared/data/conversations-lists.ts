import type { Tenant } from '../domain/auth/tenant';
import type { Conversation } from '../domain/inbox/conversation';
import type { ListSource } from '../domain/inbox/lists';
import { readCounter } from './counters';
import { taggedCounter } from './tag-links';
import { fromIndexSk } from './keys';
import { batchGet } from './batch-get';
import { conversationKey, tagLinkKey } from './entity-keys';
import { queryPage, type PageRequest } from './query';
import { fromItem, listPartition, listTotal, SNOOZED_INDEX } from './conversations';

export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  nextCursor?: string;
}

/** One page of a conversation list or of the conversations carrying a tag: O(limit) reads with a cursor, and an O(1) exact total. */
export const conversationsPage = async (tenant: Tenant, source: ListSource, page: PageRequest): Promise<ConversationPage> => {
  const [result, total] = await Promise.all(
    'list' in source
      ? [queryPage({ pk: listPartition(tenant, source.list), newestFirst: true }, page), listTotal(tenant, source.list)]
      : [
          queryPage({ pk: tagLinkKey(tenant, source.tagId, 'conversation', '').pk, skPrefix: 'conversation#', newestFirst: true }, page),
          readCounter(tenant, taggedCounter(source.tagId, 'conversation')),
        ],
  );
  const ids = result.items.map((i) => (i.conversationId as string | undefined) ?? (i.sk as string).slice('conversation#'.length));
  const items = await batchGet(ids.map((id) => conversationKey(tenant, id)));
  return { conversations: items.map(fromItem), total, nextCursor: result.nextCursor };
};

/** Snoozed conversations due by `now`, across tenants, from the sparse timer index. */
export const dueSnoozed = async (now: Date, limit = 100): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: SNOOZED_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};
