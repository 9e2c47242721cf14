import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import { indexArticle } from '../../shared/ai/articles';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target (ai.article.*): the article's change reaches the search index. */
export const handler = outboxHandler(async ({ envelope }) => {
  await indexArticle(direct, envelopeTenant(envelope), (envelope.data.article as { _id: string })._id);
});
