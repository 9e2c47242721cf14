import type { Tenant } from '../domain/auth/tenant';
import { readArticle } from '../data/kb-articles';
import { recordArticle } from '../data/kb-index';

export { createArticle, deleteArticle, getArticle, listArticles, updateArticle } from '../data/kb-articles';

/**
 * Records the article's current state, read now, as the search index's next change: a late, reordered or
 * redelivered event re-records the latest state, so it does no harm.
 */
export const indexArticle = (tenant: Tenant, articleId: string): Promise<void> =>
  recordArticle(tenant, articleId, async () => (await readArticle(tenant, articleId))?.article);
