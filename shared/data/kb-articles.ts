import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Article } from '../domain/ai/article';
import { bumpCounter, readCounter } from './counters';
import { queryPage, type PageRequest } from './query';
import { createItem, deleteItem, putItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { article as articleEntity, articleSummary } from './registry/knowledge';

/**
 * Knowledge-base articles of a workspace (keys: registry/knowledge.ts), versioned, each with its summary in
 * the newest-first list, and their total in counter `kb-articles`. Every change writes an `ai.article.*` event; the index consumer (shared/ai/index-writer.ts) follows them.
 */
const COUNTER = 'kb-articles';
const listItem = (tenant: Tenant, article: Article) =>
  putItem({ ...articleSummary.key({ tenant, id: article._id }), type: 'ARTICLE_SUMMARY', ...articleSummary.parse({ ...article }) });

export interface StoredArticle {
  article: Article;
  version: number;
}

export const readArticle = async (tenant: Tenant, id: string): Promise<StoredArticle | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: articleEntity.key({ tenant, id }), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { version, ...article } = articleEntity.parse(Item);
  return { article, version };
};

/** The writes that store a new article: its item, its summary in the list, the count. */
export const articleCreation = (tenant: Tenant, article: Article): Write[] => [
  createItem({ ...articleEntity.key({ tenant, id: article._id }), type: 'ARTICLE', version: 1, ...article }),
  listItem(tenant, article),
  bumpCounter(tenant, COUNTER, 1),
];

/** The writes that store `after` over the version read, with its summary. */
export const articleUpdate = (tenant: Tenant, found: StoredArticle, after: Article): Write[] => [
  versionedUpdate(articleEntity.key({ tenant, id: after._id }), found.version, found.article, after),
  listItem(tenant, after),
];

/** The writes that delete the article read (at its version), its summary and its count. */
export const articleDeletion = (tenant: Tenant, found: StoredArticle): Write[] => [
  deleteItem(articleEntity.key({ tenant, id: found.article._id }), { condition: 'version = :v', values: { ':v': found.version } }),
  deleteItem(articleSummary.key({ tenant, id: found.article._id })),
  bumpCounter(tenant, COUNTER, -1),
];

/** One page of article summaries, newest first, with the total. */
export const articlesPage = async (tenant: Tenant, page: PageRequest) => {
  const [result, total] = await Promise.all([
    queryPage({ pk: articleSummary.build('pk', { tenant }), newestFirst: true }, page),
    readCounter(tenant, COUNTER),
  ]);
  return { articles: result.items.map(articleSummary.parse), total, nextCursor: result.nextCursor };
};
