import type { EventBridgeEvent } from 'aws-lambda';
import { outboxHandler, type OutboxBusEvent } from '../../shared/events/from-bus';
import { observed } from '../../shared/observability/invocation';
import { pushEvent, replaySocket } from '../../shared/realtime/push';
import { SUBSCRIBED_DETAIL_TYPE } from '../../shared/domain/realtime/protocol';

type SubscribedEvent = EventBridgeEvent<typeof SUBSCRIBED_DETAIL_TYPE, { connectionId: string }>;

const live = outboxHandler(pushEvent);
const subscribed = observed(async (event: SubscribedEvent) => replaySocket(event.detail.connectionId, new Date()));

/**
 * EventBridge rule target, the one function that may post to the realtime sockets: every outbox event goes to
 * the sockets of its tenant that subscribed to it, and a socket that just subscribed gets its backlog.
 */
export const handler = (event: OutboxBusEvent | SubscribedEvent) =>
  event['detail-type'] === SUBSCRIBED_DETAIL_TYPE ? subscribed(event as SubscribedEvent) : live(event as OutboxBusEvent);
