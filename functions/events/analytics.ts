import { recordEvent } from '../../shared/analytics/record';
import { outboxEvent, type OutboxBusEvent } from '../../shared/events/from-bus';

/** EventBridge rule target (the counted inbox and CRM events): adds the event to its day's aggregates, once. */
export const handler = async (event: OutboxBusEvent): Promise<void> => {
  await recordEvent(outboxEvent(event).envelope);
};
