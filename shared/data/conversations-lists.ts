import type { Tenant } from '../domain/auth/tenant';
import type { Conversation } from '../domain/inbox/conversation';
import type { ListSource } from '../domain/inbox/lists';
import * as z from 'zod';
import { taggedPage } from './tag-links';
import { fromIndexSk } from './keys';
import { batchGet } from './batch-get';
import { conversationKey } from './entity-keys';
import { queryPage, type PageRequest } from './query';
import { fromItem, listPartition, listTotal, SNOOZED_INDEX } from './conversations';

export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  nextCursor?: string;
}

/** One page of a conversation list's ids (each membership item names its conversation), and the list's total. */
const listPage = async (tenant: Tenant, list: string, page: PageRequest) => {
  const [result, total] = await Promise.all([
    queryPage({ pk: listPartition(tenant, list), newestFirst: true }, page),
    listTotal(tenant, list),
  ]);
  return { ids: result.items.map((i) => z.string().parse(i.conversationId)), total, nextCursor: result.nextCursor };
};

/** One page of a conversation list or of the conversations carrying a tag: O(limit) reads with a cursor, and an O(1) exact total. */
export const conversationsPage = async (tenant: Tenant, source: ListSource, page: PageRequest): Promise<ConversationPage> => {
  const { ids, total, nextCursor } =
    'list' in source ? await listPage(tenant, source.list, page) : await taggedPage(tenant, source.tagId, 'conversation', page);
  const items = await batchGet(ids.map((id) => conversationKey(tenant, id)));
  return { conversations: items.map(fromItem), total, nextCursor };
};

/** Snoozed conversations due by `now`, across tenants, from the sparse timer index. */
export const dueSnoozed = async (now: Date, limit = 100): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: SNOOZED_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};
