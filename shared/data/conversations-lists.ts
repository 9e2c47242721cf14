import type { Tenant } from '../domain/auth/tenant';
import type { Conversation } from '../domain/inbox/conversation';
import type { ListSource } from '../domain/inbox/lists';
import * as z from 'zod';
import { taggedPage } from './tag-links';
import { fromIndexSk } from './keys';
import { batchGet } from './batch-get';
import { conversationKey } from './entity-keys';
import { decodeMergedCursor, encodeMergedCursor } from './lists';
import { statusParts } from '../domain/inbox/lists';
import { checkDepth, queryPage, type PageRequest } from './query';
import { fromItem, listPartition, listTotal, SNOOZED_INDEX } from './conversations';

export interface ConversationPage {
  conversations: Conversation[];
  total: number;
  nextCursor?: string;
}

/**
 * One page of a list stored as its status parts (`all`, an assignee's), newest first: every part shares the
 * sort order `<createdAt>#<id>`, so the page is the first `limit` of the parts' own first pages merged, and a
 * cursor is the sort key it stopped at (each part resumes below it). Page N reads N·limit of each part.
 */
const mergedPage = async (tenant: Tenant, list: string, parts: string[], page: PageRequest) => {
  const pk = listPartition(tenant, list);
  const below = page.cursor ? decodeMergedCursor(page.cursor, pk) : undefined;
  if (page.page && page.page > 1 && !page.cursor) checkDepth(page);
  const skipped = page.cursor ? 0 : ((page.page ?? 1) - 1) * page.limit;
  const wanted = skipped + page.limit;
  const read = await Promise.all(
    parts.map((p) => queryPage({ pk: listPartition(tenant, p), newestFirst: true, skBelow: below }, { limit: wanted })),
  );
  const merged = read.flatMap((r) => r.items).sort((a, b) => ((b.sk as string) < (a.sk as string) ? -1 : 1));
  const items = merged.slice(skipped, wanted);
  const more = merged.length > wanted || read.some((r) => r.nextCursor);
  return { items, nextCursor: more && items.length ? encodeMergedCursor(pk, items.at(-1)!.sk as string) : undefined };
};

/** One page of a conversation list's ids (each membership item names its conversation), and the list's total. */
const listPage = async (tenant: Tenant, list: string, page: PageRequest, total: () => Promise<number>) => {
  const parts = statusParts(list);
  const [result, n] = await Promise.all([
    parts ? mergedPage(tenant, list, parts, page) : queryPage({ pk: listPartition(tenant, list), newestFirst: true }, page),
    total(),
  ]);
  return { ids: result.items.map((i) => z.string().parse(i.conversationId)), total: n, nextCursor: result.nextCursor };
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
  const items = await batchGet(ids.map((id) => conversationKey(tenant, id)));
  return { conversations: items.map(fromItem), total: n, nextCursor };
};

/** Snoozed conversations due by `now`, across tenants, from the sparse timer index. */
export const dueSnoozed = async (now: Date, limit = 100): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: SNOOZED_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};
