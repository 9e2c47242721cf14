import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { withContext } from '../observability/context';
import { observed } from '../observability/invocation';
import type { EventEnvelope } from './envelope';
import { unpackText } from '../packed-text';

/** What the pipe puts on the bus: the DynamoDB stream record of an outbox item, untransformed. */
interface OutboxStreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue> };
}

export const OUTBOX_SOURCE = 'parley.outbox';
export const OUTBOX_DETAIL_TYPE = 'DomainEvent';
/** The bus rule pattern that matches every outbox event. */
export const OUTBOX_PATTERN = { source: [OUTBOX_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE] };

export type OutboxBusEvent = EventBridgeEvent<typeof OUTBOX_DETAIL_TYPE, OutboxStreamRecord>;

export interface OutboxEvent {
  envelope: EventEnvelope;
  /** The exact bytes that were serialised when the event was written. */
  payload: string;
  /** The request (or scheduled run) that caused the event, when one did. */
  requestId?: string;
}

/** The stored envelope, its bytes and its cause, from the bus event. */
const outboxEvent = (event: OutboxBusEvent): OutboxEvent => {
  const image = event.detail.dynamodb?.NewImage;
  if (!image) throw new Error(`bus event ${event.id} carries no outbox image`);
  const item = unmarshall(image);
  const payload = unpackText(item, 'payload')!;
  return { envelope: JSON.parse(payload) as EventEnvelope, payload, requestId: item.requestId as string | undefined };
};

/** A bus rule's target: `fn` gets the outbox event and logs under its id, type and causing request. */
export const outboxHandler = (fn: (event: OutboxEvent) => Promise<void>): ((event: OutboxBusEvent, context?: Context) => Promise<void>) =>
  observed(async (busEvent: OutboxBusEvent) => {
    const event = outboxEvent(busEvent);
    const { eventId, eventType } = event.envelope;
    return withContext({ eventId, eventType, requestId: event.requestId }, () => fn(event));
  });

/** The outbox pattern narrowed to some event types (exact names or `{ prefix }`): a rule's target then sees only those. */
export const outboxPatternOf = (eventTypes: readonly (string | { prefix: string })[]) => ({
  ...OUTBOX_PATTERN,
  detail: { dynamodb: { NewImage: { eventType: { S: eventTypes } } } },
});
