import { objectId } from '../ids';
import { EVENT_ITEM_TYPE } from '../data/table';
import { createItem, type TxItem } from '../data/transact';
import type { EventType } from './catalog';
import { serialise } from './payload';

export type Changes = Record<string, [unknown, unknown]>;

export interface EventEnvelope {
  eventId: string;
  eventType: EventType | 'webhook.ping';
  workspaceId: string;
  occurredAt: string;
  apiVersion: 'v1';
  data: Record<string, unknown>;
  changes?: Changes;
}

/** Outbox items live a week: long enough for the stream consumer to catch up after an outage. */
const OUTBOX_TTL_SECONDS = 7 * 24 * 3600;

export const buildEnvelope = (
  eventType: EventEnvelope['eventType'],
  workspaceId: string,
  data: Record<string, unknown>,
  opts: { changes?: Changes; now?: Date } = {},
): EventEnvelope => {
  const now = opts.now ?? new Date();
  return {
    eventId: objectId(now.getTime()),
    eventType,
    workspaceId,
    occurredAt: now.toISOString(),
    apiVersion: 'v1',
    data,
    ...(opts.changes && Object.keys(opts.changes).length > 0 ? { changes: opts.changes } : {}),
  };
};

/**
 * The transactional-outbox item for an event. `payload` holds the serialised envelope (trimmed to ids and
 * links past 256 KB): those exact bytes are what every webhook attempt sends and signs.
 */
export const outboxItem = (envelope: EventEnvelope): TxItem =>
  createItem({
    pk: `EVT#${envelope.eventId}`,
    sk: EVENT_ITEM_TYPE,
    type: EVENT_ITEM_TYPE,
    eventId: envelope.eventId,
    eventType: envelope.eventType,
    workspaceId: envelope.workspaceId,
    payload: serialise(envelope),
    ttl: Math.floor(Date.parse(envelope.occurredAt) / 1000) + OUTBOX_TTL_SECONDS,
  });

/** Field-level diff for `changes` on update events; only keys present in `after` are compared. */
export const diff = (before: object, after: object): Changes => {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(a)
      .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
      .map((k) => [k, [b[k] ?? null, a[k] ?? null]]),
  );
};
