import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import { readArticle } from '../../shared/data/kb-articles';
import { recordArticle } from '../../shared/data/kb-index';

/**
 * EventBridge rule target (ai.article.*): records the article's current state, read now, as the search
 * index's next change. Reading the article instead of trusting the event makes late, reordered or
 * redelivered events harmless: each one re-records the latest state.
 */
export const handler = outboxHandler(async ({ envelope }) => {
  const tenant = envelopeTenant(envelope);
  const articleId = (envelope.data.article as { _id: string })._id;
  await recordArticle(tenant, articleId, async () => (await readArticle(tenant, articleId))?.article);
});
