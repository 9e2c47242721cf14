import { objectId } from '../ids';
import type { EventType } from './catalog';

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
