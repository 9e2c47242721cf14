import type { EventEnvelope } from '../events/envelope';
import { serialise } from '../events/payload';
import { EVENT_ITEM_TYPE } from './table';
import { createItem, type Write } from './transact';
import { currentContext } from '../observability/context';

const requestIdOf = () => {
  const { requestId } = currentContext();
  return requestId ? { requestId } : {};
};

/** Outbox items live a week: long enough for the stream consumer to catch up after an outage. */
const OUTBOX_TTL_SECONDS = 7 * 24 * 3600;

/**
 * The transactional-outbox item for an event. `payload` holds the serialised envelope (trimmed to ids and
 * links past 256 KB): those exact bytes are what every webhook attempt sends and signs. `requestId` names
 * the request (or scheduled run) whose change this event reports, so the work the event causes logs under it.
 */
export const outboxItem = (envelope: EventEnvelope): Write =>
  createItem({
    pk: `EVT#${envelope.eventId}`,
    sk: EVENT_ITEM_TYPE,
    type: EVENT_ITEM_TYPE,
    eventId: envelope.eventId,
    eventType: envelope.eventType,
    workspaceId: envelope.workspaceId,
    payload: serialise(envelope),
    ...requestIdOf(),
    ttl: Math.floor(Date.parse(envelope.occurredAt) / 1000) + OUTBOX_TTL_SECONDS,
  });
