import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Article } from '../domain/ai/article';
import type { IndexDoc } from '../domain/ai/passages';
import { tenantPk } from './keys';
import { queryAll } from './query';
import { lostRace, retryOnConflict } from './retry';
import { deleteItem, putItem, transact, updateItem } from './transact';
import { K } from './registry/registry';
import * as z from 'zod';
import { itemCodec } from './codec';
import { article as articleView } from '../views/ai';

/**
 * The search side of the knowledge base, one partition per tenant (pk=<tenant>#KBIDX), written only by the
 * index consumer from `ai.article.*` events:
 * - HEAD ................ `seq`: the number of changes applied so far
 * - DOC#<articleId> ..... what the index holds of a published article (absent when unpublished or deleted)
 * - CHG#<seq, 12 digits>  which article change number `seq` touched
 * A searching function builds its in-memory index from the DOC items once per warm container, then
 * applies the CHG items past its own `seq` (a Query on a key range) before each search.
 * HEAD and the CHG item are written in one transaction conditional on the HEAD read, so CHG#n exists
 * exactly when HEAD ≥ n: a reader that has seen `seq` can never miss a change at or below it.
 */
const pk = (tenant: Tenant) => tenantPk(tenant, K.KBIDX);
const HEAD = K.HEAD;
const DOC = `${K.DOC}#`;
const CHG = `${K.CHG}#`;
const seqKey = (seq: number) => `${CHG}${String(seq).padStart(12, '0')}`;

const readSeq = async (tenant: Tenant): Promise<number> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: pk(tenant), sk: HEAD }, ConsistentRead: true }),
  );
  return (Item?.seq as number | undefined) ?? 0;
};

const fromItem: (item: Record<string, unknown>) => IndexDoc = itemCodec(
  z.object({ articleId: z.string(), ...articleView.pick({ title: true, body: true, tags: true, locale: true }).shape }),
);
const toDoc = (a: Article): IndexDoc => ({ articleId: a._id, title: a.title, body: a.body, tags: a.tags, locale: a.locale });

/**
 * Records the article's current state (`load`: undefined when deleted) as the index's next change. The
 * sequence is read before the article, and the write is conditional on it: when two changes race, the one
 * that loses re-reads the article, so the last change recorded always holds the article's latest state.
 */
export const recordArticle = (tenant: Tenant, articleId: string, load: () => Promise<Article | undefined>): Promise<void> =>
  retryOnConflict(async () => {
    const seq = await readSeq(tenant);
    const article = await load();
    const docKey = { pk: pk(tenant), sk: `${DOC}${articleId}` };
    await transact(
      [
        updateItem({ pk: pk(tenant), sk: HEAD }, 'SET seq = :next', {
          values: { ':next': seq + 1, ':seq': seq, ':zero': 0 },
          condition: '(attribute_not_exists(seq) AND :seq = :zero) OR seq = :seq',
        }),
        article?.published ? putItem({ ...docKey, type: 'KB_DOC', ...toDoc(article) }) : deleteItem(docKey),
        putItem({ pk: pk(tenant), sk: seqKey(seq + 1), type: 'KB_CHANGE', articleId }),
      ],
      lostRace,
    );
  });

export const indexSeq = readSeq;

/** Every indexed document of the tenant, read page by page. */
export async function* indexDocs(tenant: Tenant): AsyncGenerator<IndexDoc> {
  for await (const item of queryAll({ pk: pk(tenant), skPrefix: DOC })) yield fromItem(item);
}

/** The ids of the articles changed after change `after` up to `upTo`, oldest first. */
export const changesSince = async (tenant: Tenant, after: number, upTo: number): Promise<string[]> => {
  const ids: string[] = [];
  for await (const item of queryAll({ pk: pk(tenant), skBetween: [seqKey(after + 1), seqKey(upTo)] })) ids.push(item.articleId as string);
  return ids;
};

/** The document of one article, or undefined when it is not indexed (unpublished or deleted). */
export const indexDoc = async (tenant: Tenant, articleId: string): Promise<IndexDoc | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: pk(tenant), sk: `${DOC}${articleId}` }, ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};
