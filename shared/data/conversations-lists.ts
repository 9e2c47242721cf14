import { storedTenant, type Tenant } from '../domain/auth/tenant';
import type { Conversation } from '../domain/inbox/conversation';
import type { ListSource } from '../domain/inbox/lists';
import * as z from 'zod';
import { taggedPage } from './tag-links';
import { batchGet } from './batch-get';
import { conversationKey } from './entity-keys';
import { mergedMemberPage } from './lists';
import { listsOf, statusParts } from '../domain/inbox/lists';
import { queryPage, type PageRequest, type Partition } from './query';
import { fromItem, idOfEntry, indexOfList, listPartition, listTotal, memberOf, type ListIndex } from './conversations';
import { conversation as conversationEntity } from './registry/inbox';

export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  nextCursor?: string;
}

/**
 * Where a stored list's members are: its membership items and, for a status list or an assignee's with a status,
 * the conversations' own entries in its index (a conversation is in one of them at a time: see LIST_INDEXES). Both
 * share the partition key and the order `<createdAt>#<id>`.
 */
type Source = Partition & { index?: ListIndex };
const sourcesOf = (tenant: Tenant, list: string): Source[] => {
  const pk = listPartition(tenant, list);
  const index = indexOfList(list);
  return [{ pk }, ...(index ? [{ index, pk }] : [])];
};
const orderOf = (source: Source, item: Record<string, unknown>) => z.string().parse(item[source.index ? `${source.index}sk` : 'sk']);
const idOf = (source: Source, item: Record<string, unknown>) => (source.index ? idOfEntry(source.index, item) : memberOf(item));

/**
 * One page of a list read as the merge of its sources (its status parts for `all` and an assignee's, each part's
 * items and index entries), newest first (see mergedMemberPage); page N reads N·limit of each source.
 */
const mergedPage = (tenant: Tenant, list: string, sources: Source[], page: PageRequest) =>
  mergedMemberPage(
    listPartition(tenant, list),
    sources.map((source) => ({ partition: source, member: (item) => ({ order: orderOf(source, item), id: idOf(source, item) }) })),
    page,
  );

/** One page of a conversation list's ids, and the list's total. */
const listPage = async (tenant: Tenant, list: string, page: PageRequest, total: () => Promise<number>) => {
  const sources = (statusParts(list) ?? [list]).flatMap((part) => sourcesOf(tenant, part));
  const [result, n] = await Promise.all([
    sources.length > 1
      ? mergedPage(tenant, list, sources, page)
      : queryPage({ ...sources[0]!, newestFirst: true }, page).then((r) => ({
          ids: r.items.map((i) => idOf(sources[0]!, i)),
          nextCursor: r.nextCursor,
        })),
    total(),
  ]);
  return { ids: result.ids, total: n, nextCursor: result.nextCursor };
};

/**
 * Whether `c` is in `list` as read now: an index entry may still name a conversation a moment after it left the
 * list (index reads are eventually consistent on AWS), and such a conversation is not shown.
 */
const inList = (c: Conversation, list: string) => {
  const lists = listsOf(c);
  return (statusParts(list) ?? [list]).some((part) => lists.includes(part));
};

/**
 * One page of a conversation list or of the conversations carrying a tag: O(limit) reads with a cursor, and an O(1)
 * exact total (`total` reads it where the list's count is kept elsewhere: a customer's).
 */
export const conversationsPage = async (
  tenant: Tenant,
  source: ListSource,
  page: PageRequest,
  total?: () => Promise<number>,
): Promise<ConversationPage> => {
  const {
    ids,
    total: n,
    nextCursor,
  } = 'list' in source
    ? await listPage(tenant, source.list, page, total ?? (() => listTotal(tenant, source.list)))
    : await taggedPage(tenant, source.tagId, 'conversation', page);
  const unique = [...new Set(ids)];
  const conversations = (await batchGet(unique.map((id) => conversationKey(tenant, id)))).map(fromItem);
  return { conversations: 'list' in source ? conversations.filter((c) => inList(c, source.list)) : conversations, total: n, nextCursor };
};

/** Snoozed conversations due by `now`, across tenants, from the sparse timer index. */
export const dueSnoozed = async (now: Date, limit = 100): Promise<{ tenant: Tenant; id: string }[]> => {
  const due = `${conversationEntity.prefix('gsi1sk', { snoozedUntil: now.toISOString() })}~`;
  const { items } = await queryPage({ index: 'gsi1', pk: conversationEntity.build('gsi1pk', {}), skUpTo: due }, { limit });
  return items.map((i) => {
    const { tenant, id } = conversationEntity.read('gsi1sk', i.gsi1sk);
    return { tenant: storedTenant(tenant), id };
  });
};
