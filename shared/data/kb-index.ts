import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Article } from '../domain/ai/article';
import type { IndexDoc } from '../domain/ai/passages';
import { queryAll } from './query';
import { lostRace, retryOnConflict } from './retry';
import { deleteItem, putItem, updateItem } from './transact';
import type { Unit } from './unit';
import { searchChange, searchDoc, searchHead } from './registry/knowledge';

/** The search side of the knowledge base (keys and how they hold together: registry/knowledge.ts). */
const pk = (tenant: Tenant) => searchHead.build('pk', { tenant });
const headKey = (tenant: Tenant) => searchHead.key({ tenant });
const docKey = (tenant: Tenant, articleId: string) => searchDoc.key({ tenant, articleId });
const changeKey = (tenant: Tenant, seq: number) => searchChange.key({ tenant, seq: String(seq).padStart(12, '0') });

const readSeq = async (tenant: Tenant): Promise<number> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: headKey(tenant), ConsistentRead: true }));
  return Item ? searchHead.parse(Item).seq : 0;
};

const fromItem: (item: Record<string, unknown>) => IndexDoc = searchDoc.parse;
const toDoc = (a: Article): IndexDoc => ({ articleId: a._id, title: a.title, body: a.body, tags: a.tags, locale: a.locale });

/**
 * Records the article's current state (`load`: undefined when deleted) as the index's next change. The
 * sequence is read before the article, and the write is conditional on it: when two changes race, the one
 * that loses re-reads the article, so the last change recorded always holds the article's latest state.
 */
export const recordArticle = (unit: Unit, tenant: Tenant, articleId: string, load: () => Promise<Article | undefined>): Promise<void> =>
  retryOnConflict(async () => {
    const seq = await readSeq(tenant);
    const article = await load();
    const doc = docKey(tenant, articleId);
    await unit.commit(
      [
        updateItem(headKey(tenant), 'SET seq = :next', {
          values: { ':next': seq + 1, ':seq': seq, ':zero': 0 },
          condition: '(attribute_not_exists(seq) AND :seq = :zero) OR seq = :seq',
        }),
        article?.published ? putItem({ ...doc, type: 'KB_DOC', ...toDoc(article) }) : deleteItem(doc),
        putItem({ ...changeKey(tenant, seq + 1), type: 'KB_CHANGE', articleId }),
      ],
      lostRace,
    );
  });

export const indexSeq = readSeq;

/** Every indexed document of the tenant, read page by page. */
export async function* indexDocs(tenant: Tenant): AsyncGenerator<IndexDoc> {
  for await (const item of queryAll({ pk: pk(tenant), skPrefix: searchDoc.prefix('sk', {}) })) yield fromItem(item);
}

/** The ids of the articles changed after change `after` up to `upTo`, oldest first. */
export const changesSince = async (tenant: Tenant, after: number, upTo: number): Promise<string[]> => {
  const ids: string[] = [];
  const between = [changeKey(tenant, after + 1).sk, changeKey(tenant, upTo).sk] as const;
  for await (const item of queryAll({ pk: pk(tenant), skBetween: between })) ids.push(searchChange.parse(item).articleId);
  return ids;
};

/** The document of one article, or undefined when it is not indexed (unpublished or deleted). */
export const indexDoc = async (tenant: Tenant, articleId: string): Promise<IndexDoc | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: docKey(tenant, articleId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};
