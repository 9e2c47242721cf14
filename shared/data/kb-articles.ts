import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { applyArticleUpdate, newArticle, type Article, type CreateArticle, type UpdateArticle } from '../domain/ai/article';
import { bumpCounter, readCounter } from './counters';
import { tenantPk } from './keys';
import { outboxItem } from './outbox';
import { queryPage, type PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { createItem, deleteItem, putItem, transact } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { article as articleView, articleSummary } from '../views/ai';

/**
 * Knowledge-base articles of a workspace.
 * - article by id ...... pk=<tenant>#KBART#<id>  sk=ARTICLE  (version)
 * - newest first ....... pk=<tenant>#KBARTS        sk=<id>  (a summary without the body: a page of 100
 *                        full articles could pass Query's 1 MB page and the API's payload limit)
 * - total .............. counter `kb-articles`
 * Every change writes an `ai.article.*` event; the index consumer (shared/ai/index-writer.ts) follows them.
 */
const COUNTER = 'kb-articles';
const articleKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.KBART, id), sk: K.ARTICLE });
const listPk = (tenant: Tenant) => tenantPk(tenant, K.KBARTS);

type ArticleSummary = Omit<Article, 'body'>;

const fromItem: (item: Record<string, unknown>) => Article = itemCodec(articleView);
const summaryOf: (item: Record<string, unknown>) => ArticleSummary = itemCodec(articleSummary);
const listItem = (tenant: Tenant, article: Article) =>
  putItem({ pk: listPk(tenant), sk: article._id, type: 'ARTICLE_SUMMARY', ...summaryOf({ ...article }) });

export const readArticle = async (tenant: Tenant, id: string): Promise<{ article: Article; version: number } | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: articleKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { article: fromItem(Item), version: Item.version as number } : undefined;
};

export const getArticle = async (tenant: Tenant, id: string): Promise<Article> => {
  const found = await readArticle(tenant, id);
  if (!found) throw new Missing('Article');
  return found.article;
};

export const createArticle = async (tenant: Tenant, input: CreateArticle, now: Date): Promise<Article> => {
  const article = newArticle(objectId(now.getTime()), input, now);
  await transact([
    createItem({ ...articleKey(tenant, article._id), type: 'ARTICLE', version: 1, ...article }),
    listItem(tenant, article),
    bumpCounter(tenant, COUNTER, 1),
    outboxItem(buildEnvelope('ai.article.created', tenant, { article }, { now })),
  ]);
  return article;
};

/** A PATCH that changes nothing writes nothing and emits no event. */
export const updateArticle = (tenant: Tenant, id: string, input: UpdateArticle, now: Date): Promise<Article> =>
  retryOnConflict(async () => {
    const found = await readArticle(tenant, id);
    if (!found) throw new Missing('Article');
    const { article, changed } = applyArticleUpdate(found.article, input, now);
    if (!changed) return found.article;
    await transact(
      [
        versionedUpdate(articleKey(tenant, id), found.version, found.article, article),
        listItem(tenant, article),
        outboxItem(buildEnvelope('ai.article.updated', tenant, { article }, { now, changes: diff(found.article, input) })),
      ],
      lostRace,
    );
    return article;
  });

export const deleteArticle = (tenant: Tenant, id: string, now: Date): Promise<Article> =>
  retryOnConflict(async () => {
    const found = await readArticle(tenant, id);
    if (!found) throw new Missing('Article');
    await transact(
      [
        deleteItem(articleKey(tenant, id), { condition: 'version = :v', values: { ':v': found.version } }),
        deleteItem({ pk: listPk(tenant), sk: id }),
        bumpCounter(tenant, COUNTER, -1),
        outboxItem(buildEnvelope('ai.article.deleted', tenant, { article: found.article }, { now })),
      ],
      lostRace,
    );
    return found.article;
  });

export const listArticles = async (tenant: Tenant, page: PageRequest) => {
  const [result, total] = await Promise.all([queryPage({ pk: listPk(tenant), newestFirst: true }, page), readCounter(tenant, COUNTER)]);
  return { articles: result.items.map(summaryOf), total, nextCursor: result.nextCursor };
};
