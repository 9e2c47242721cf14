import { outboxEvent, type OutboxBusEvent } from '../../shared/events/from-bus';
import { log } from '../../shared/log';
import { onEvent } from '../../shared/workflows/triggers';

/** EventBridge rule target: starts the runs of the workspace's active workflows whose event trigger matches. */
export const handler = async (event: OutboxBusEvent): Promise<void> => {
  const { envelope } = outboxEvent(event);
  const started = await onEvent(envelope);
  if (started > 0) log.info('workflows triggered', { eventId: envelope.eventId, eventType: envelope.eventType, started });
};
