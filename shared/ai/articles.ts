import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { applyArticleUpdate, newArticle, type Article, type CreateArticle, type UpdateArticle } from '../domain/ai/article';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { articleCreation, articleDeletion, articlesPage, articleUpdate, readArticle, type StoredArticle } from '../data/kb-articles';
import { recordArticle } from '../data/kb-index';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';

const requireArticle = async (tenant: Tenant, id: string): Promise<StoredArticle> => {
  const found = await readArticle(tenant, id);
  if (!found) throw new Missing('Article');
  return found;
};

export const getArticle = async (tenant: Tenant, id: string): Promise<Article> => (await requireArticle(tenant, id)).article;

export const listArticles = (tenant: Tenant, page: PageRequest) => articlesPage(tenant, page);

export const createArticle = async (unit: Unit, tenant: Tenant, input: CreateArticle, now: Date): Promise<Article> => {
  const article = newArticle(objectId(now.getTime()), input, now);
  await unit.commit([...articleCreation(tenant, article), outboxItem(buildEnvelope('ai.article.created', tenant, { article }, { now }))]);
  return article;
};

/** A PATCH that changes nothing writes nothing and emits no event. */
export const updateArticle = (unit: Unit, tenant: Tenant, id: string, input: UpdateArticle, now: Date): Promise<Article> =>
  retryOnConflict(async () => {
    const found = await requireArticle(tenant, id);
    const { article, changed } = applyArticleUpdate(found.article, input, now);
    if (!changed) return found.article;
    const event = buildEnvelope('ai.article.updated', tenant, { article }, { now, changes: diff(found.article, input) });
    await unit.commit([...articleUpdate(tenant, found, article), outboxItem(event)], lostRace);
    return article;
  });

export const deleteArticle = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Article> =>
  retryOnConflict(async () => {
    const found = await requireArticle(tenant, id);
    const event = buildEnvelope('ai.article.deleted', tenant, { article: found.article }, { now });
    await unit.commit([...articleDeletion(tenant, found), outboxItem(event)], lostRace);
    return found.article;
  });

/**
 * Records the article's current state, read now, as the search index's next change: a late, reordered or
 * redelivered event re-records the latest state, so it does no harm.
 */
export const indexArticle = (unit: Unit, tenant: Tenant, articleId: string): Promise<void> =>
  recordArticle(unit, tenant, articleId, async () => (await readArticle(tenant, articleId))?.article);
