import type { Tenant } from '../domain/auth/tenant';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { serialise } from '../events/payload';
import { packText, unpackText } from '../packed-text';
import { EVENT_ITEM_TYPE } from './table';
import { createItem, type Write } from './transact';
import { removeOnce } from './unit';
import { currentContext } from '../observability/context';
import { batchGetEach } from './batch-get';
import { eventBody, outboxEvent } from './registry/requests';

const requestIdOf = () => {
  const { requestId } = currentContext();
  return requestId ? { requestId } : {};
};

/** Outbox items live 30 days, as long as the webhook delivery log (registry/workspace.ts). */
const OUTBOX_TTL_SECONDS = 30 * 24 * 3600;
const bodyKey = (eventId: string) => eventBody.key({ eventId });

/**
 * The transactional-outbox item for an event. `payload` holds the serialised envelope (trimmed to ids and
 * links past 256 KB), or `payloadZ` the same compressed (`packText`): those exact bytes are what every
 * webhook attempt sends and signs. `requestId` names
 * the request (or scheduled run) whose change this event reports, so the work the event causes logs under it.
 */
export const outboxItem = (envelope: EventEnvelope): Write =>
  createItem({
    // The tenant's events log (GET /events, realtime replays) is this item's partition.
    ...outboxEvent.key({ tenant: envelopeTenant(envelope), eventId: envelope.eventId }),
    type: EVENT_ITEM_TYPE,
    eventId: envelope.eventId,
    eventType: envelope.eventType,
    workspaceId: envelope.workspaceId,
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

/**
 * Where an event's body may be: in its tenant's log, or by its id alone (a ping's body, or an event stored before
 * the log moved into the tenant's partition). One of the two holds it.
 */
const bodyKeys = (tenant: Tenant, eventId: string) => [outboxEvent.key({ tenant, eventId }), bodyKey(eventId)] as const;

/** An event body's keys and parser, for reading it in one BatchGetItem with other items. */
export const eventPayloadRead = (tenant: Tenant, eventId: string) => ({
  keys: bodyKeys(tenant, eventId),
  parse: (logged: Record<string, unknown> | undefined, byId: Record<string, unknown> | undefined) =>
    unpackText(logged, 'payload') ?? unpackText(byId, 'payload'),
});

/** The exact bytes an event of `tenant` was serialised to, as its outbox (or body) item keeps them. */
export const eventPayload = async (tenant: Tenant, eventId: string): Promise<string | undefined> => {
  const read = eventPayloadRead(tenant, eventId);
  const [logged, byId] = await batchGetEach(read.keys);
  return read.parse(logged, byId);
};

/** Deletes a stored event of `tenant` (it leaves its events log with it), with `extra` in the transaction; false when it was gone. */
export const deleteStoredEvent = async (tenant: Tenant, eventId: string, extra: Write[]): Promise<boolean> => {
  const [logged, byId] = bodyKeys(tenant, eventId);
  return (await removeOnce(logged, extra)) || removeOnce(byId, extra);
};
