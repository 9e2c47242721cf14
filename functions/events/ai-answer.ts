import { answerIncoming } from '../../shared/ai/auto-reply';
import { outboxEvent, type OutboxBusEvent } from '../../shared/events/from-bus';
import { log } from '../../shared/log';

/** EventBridge rule target (inbox.message.received): the AI's automatic reply or suggestion note, if its settings ask for one. */
export const handler = async (event: OutboxBusEvent): Promise<void> => {
  const { envelope } = outboxEvent(event);
  const { outcome, suggestion } = await answerIncoming(envelope);
  if (outcome !== 'off') log.info('ai answer', { eventId: envelope.eventId, outcome, confidence: suggestion?.confidence });
};
