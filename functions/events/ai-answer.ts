import { answerIncoming } from '../../shared/ai/auto-reply';
import { outboxHandler } from '../../shared/events/from-bus';
import { log } from '../../shared/log';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target (inbox.message.received): the AI's automatic reply or suggestion note, if its settings ask for one. */
export const handler = outboxHandler(async ({ envelope }) => {
  const { outcome, suggestion } = await answerIncoming(direct, envelope);
  if (outcome !== 'off') log.info('ai answer', { outcome, confidence: suggestion?.confidence });
});
