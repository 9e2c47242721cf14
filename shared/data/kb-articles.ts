import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Article } from '../domain/ai/article';
import { bumpCounter, readCounter } from './counters';
import { tenantPk } from './keys';
import { queryPage, type PageRequest } from './query';
import { createItem, deleteItem, putItem, type Write } from './transact';
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

export interface StoredArticle {
  article: Article;
  version: number;
}

export const readArticle = async (tenant: Tenant, id: string): Promise<StoredArticle | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: articleKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { article: fromItem(Item), version: Item.version as number } : undefined;
};

/** The writes that store a new article: its item, its summary in the list, the count. */
export const articleCreation = (tenant: Tenant, article: Article): Write[] => [
  createItem({ ...articleKey(tenant, article._id), type: 'ARTICLE', version: 1, ...article }),
  listItem(tenant, article),
  bumpCounter(tenant, COUNTER, 1),
];

/** The writes that store `after` over the version read, with its summary. */
export const articleUpdate = (tenant: Tenant, found: StoredArticle, after: Article): Write[] => [
  versionedUpdate(articleKey(tenant, after._id), found.version, found.article, after),
  listItem(tenant, after),
];

/** The writes that delete the article read (at its version), its summary and its count. */
export const articleDeletion = (tenant: Tenant, found: StoredArticle): Write[] => [
  deleteItem(articleKey(tenant, found.article._id), { condition: 'version = :v', values: { ':v': found.version } }),
  deleteItem({ pk: listPk(tenant), sk: found.article._id }),
  bumpCounter(tenant, COUNTER, -1),
];

/** One page of article summaries, newest first, with the total. */
export const articlesPage = async (tenant: Tenant, page: PageRequest) => {
  const [result, total] = await Promise.all([queryPage({ pk: listPk(tenant), newestFirst: true }, page), readCounter(tenant, COUNTER)]);
  return { articles: result.items.map(summaryOf), total, nextCursor: result.nextCursor };
};
