import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import type { EventEnvelope } from './envelope';

/** What the pipe puts on the bus: the DynamoDB stream record of an outbox item, untransformed. */
export interface OutboxStreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue> };
}

export const OUTBOX_SOURCE = 'parley.outbox';
export const OUTBOX_DETAIL_TYPE = 'DomainEvent';
/** The bus rule pattern that matches every outbox event. */
export const OUTBOX_PATTERN = { source: [OUTBOX_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE] };

export type OutboxBusEvent = EventBridgeEvent<typeof OUTBOX_DETAIL_TYPE, OutboxStreamRecord>;

/** The stored envelope and the exact bytes that were serialised when the event was written. */
export const outboxEvent = (event: OutboxBusEvent): { envelope: EventEnvelope; payload: string } => {
  const image = event.detail.dynamodb?.NewImage;
  if (!image) throw new Error(`bus event ${event.id} carries no outbox image`);
  const { payload } = unmarshall(image) as { payload: string };
  return { envelope: JSON.parse(payload) as EventEnvelope, payload };
};

/** The outbox pattern narrowed to some event types (exact names or `{ prefix }`): a rule's target then sees only those. */
export const outboxPatternOf = (eventTypes: readonly (string | { prefix: string })[]) => ({
  ...OUTBOX_PATTERN,
  detail: { dynamodb: { NewImage: { eventType: { S: eventTypes } } } },
});
