import { outboxEvent, type OutboxBusEvent } from '../../shared/events/from-bus';
import { log } from '../../shared/log';
import { fanOut } from '../../shared/webhooks/fanout';

/** EventBridge rule target: one delivery per active matching subscription, written idempotently, then enqueued. */
export const handler = async (event: OutboxBusEvent): Promise<void> => {
  const { envelope } = outboxEvent(event);
  const deliveries = await fanOut(envelope);
  if (deliveries > 0) log.info('webhook fan-out', { eventId: envelope.eventId, eventType: envelope.eventType, deliveries });
};
