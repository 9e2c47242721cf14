import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { serialise } from '../events/payload';
import { packText, unpackText } from '../packed-text';
import { EVENT_ITEM_TYPE } from './table';
import { createItem, type Write } from './transact';
import { removeOnce } from './unit';
import { currentContext } from '../observability/context';
import { outboxEvent } from './registry/requests';

const requestIdOf = () => {
  const { requestId } = currentContext();
  return requestId ? { requestId } : {};
};

/** Outbox items live 30 days, as long as the webhook delivery log (registry/workspace.ts). */
const OUTBOX_TTL_SECONDS = 30 * 24 * 3600;
const bodyKey = (eventId: string) => outboxEvent.key({ eventId });

/**
 * The transactional-outbox item for an event. `payload` holds the serialised envelope (trimmed to ids and
 * links past 256 KB), or `payloadZ` the same compressed (`packText`): those exact bytes are what every
 * webhook attempt sends and signs. `requestId` names
 * the request (or scheduled run) whose change this event reports, so the work the event causes logs under it.
 */
export const outboxItem = (envelope: EventEnvelope): Write =>
  createItem({
    ...bodyKey(envelope.eventId),
    type: EVENT_ITEM_TYPE,
    eventId: envelope.eventId,
    eventType: envelope.eventType,
    workspaceId: envelope.workspaceId,
    // The tenant's events log (GET /events, realtime replays) is this item's index entry, written with it.
    ...outboxEvent.index('gsi2', { tenant: envelopeTenant(envelope), eventId: envelope.eventId }),
    ...packText('payload', serialise(envelope)),
    ...requestIdOf(),
    ttl: Math.floor(Date.parse(envelope.occurredAt) / 1000) + OUTBOX_TTL_SECONDS,
  });

/** Item type of an event body stored for webhooks only (a ping): the event pipe forwards only outbox items. */
const BODY_ITEM_TYPE = 'EVENT_BODY';

/** Stores the body of an event that has no outbox item, where the delivery worker reads every event's body. */
export const storeEventBody = (envelope: EventEnvelope, payload: string): Write =>
  createItem({
    ...bodyKey(envelope.eventId),
    type: BODY_ITEM_TYPE,
    ...packText('payload', payload),
    ttl: Math.floor(Date.parse(envelope.occurredAt) / 1000) + OUTBOX_TTL_SECONDS,
  });

/** An event body's key and parser, for reading it in one BatchGetItem with other items. */
export const eventPayloadRead = (eventId: string) => ({
  key: bodyKey(eventId),
  parse: (item: Record<string, unknown> | undefined) => unpackText(item, 'payload'),
});

/** The exact bytes an event was serialised to, as its outbox (or body) item keeps them. */
export const eventPayload = async (eventId: string): Promise<string | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: bodyKey(eventId),
      ProjectionExpression: 'payload, payloadZ',
      ConsistentRead: true,
    }),
  );
  return unpackText(Item, 'payload');
};

/** Deletes a stored event (it leaves its tenant's events log with it), with `extra` in the transaction; false when it was gone. */
export const deleteStoredEvent = (eventId: string, extra: Write[]): Promise<boolean> => removeOnce(bodyKey(eventId), extra);
