import { objectId } from '../ids';
import { tenantOf, tenantParts, type Tenant } from '../domain/auth/tenant';
import type { EventType } from './types';
import { currentCause, type Cause } from './cause';

export type Changes = Record<string, [unknown, unknown]>;

export interface EventEnvelope {
  eventId: string;
  eventType: EventType | 'webhook.ping';
  workspaceId: string;
  /** False for events of test-mode activity, which reach only test-mode subscriptions. */
  livemode: boolean;
  occurredAt: string;
  apiVersion: 'v1';
  data: Record<string, unknown>;
  changes?: Changes;
  /** Present when a workflow's action caused the event: that run, and the depth of the chain so far. */
  causedBy?: Cause;
}

export const buildEnvelope = (
  eventType: EventEnvelope['eventType'],
  tenant: Tenant,
  data: Record<string, unknown>,
  opts: { changes?: Changes; now?: Date; cause?: Cause } = {},
): EventEnvelope => {
  const now = opts.now ?? new Date();
  const causedBy = opts.cause ?? currentCause();
  return {
    eventId: objectId(now.getTime()),
    eventType,
    ...tenantParts(tenant),
    occurredAt: now.toISOString(),
    apiVersion: 'v1',
    data,
    ...(opts.changes && Object.keys(opts.changes).length > 0 ? { changes: opts.changes } : {}),
    ...(causedBy ? { causedBy } : {}),
  };
};

/** The tenant whose activity the event reports (events written before test mode existed carry no `livemode`: live). */
export const envelopeTenant = (envelope: Pick<EventEnvelope, 'workspaceId' | 'livemode'>): Tenant =>
  tenantOf(envelope.workspaceId, envelope.livemode !== false);

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
