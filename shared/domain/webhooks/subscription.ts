import { randomBytes } from 'node:crypto';
import { ConflictError } from '../errors';
import { tenantParts, type Tenant } from '../auth/tenant';
import { matchesAny } from './event-patterns';

/** Subscriptions per workspace; fan-out reads them all in one query page. */
export const MAX_SUBSCRIPTIONS = 100;
/** Fast-schedule-exhausted deliveries in a row that deactivate a subscription. */
export const DEACTIVATE_AFTER_FAILURES = 100;

/** What a new subscription is made from (the request body, once validated). */
export interface SubscriptionInput {
  url: string;
  events: string[];
  secret?: string;
  active?: boolean;
}

/** A PATCH: each field given replaces the current one. */
export interface SubscriptionPatch {
  url?: string;
  events?: string[];
  active?: boolean;
}

export interface Subscription {
  _id: string;
  /** The tenant (stored as `workspaceId`, which it equals in live mode); views show the workspace id and `livemode`. */
  workspaceId: Tenant;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
  consecutiveFailures: number;
  /** When the subscription last became active; events from before it are never delivered. */
  activatedAt?: string;
  deactivatedAt?: string;
  deactivationReason?: 'manual' | 'gone_410' | 'consecutive_failures';
  /** Secrets replaced by rotations, in the order they were replaced; each signs deliveries until its `expiresAt`. */
  previousSecrets?: PreviousSecret[];
  createdAt: string;
  updatedAt: string;
}

interface PreviousSecret {
  secret: string;
  expiresAt: string;
}

/** A signing secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes (the key). */
export const generateSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The view every response gets: never a secret, and the workspace id with the mode rather than the tenant. */
export const publicSubscription = ({ secret: _secret, previousSecrets, workspaceId, ...rest }: Subscription) => ({
  ...rest,
  ...tenantParts(workspaceId),
  ...(previousSecrets?.length
    ? {
        previousSecretsExpireAt: previousSecrets
          .map((p) => p.expiresAt)
          .sort()
          .at(-1)!,
      }
    : {}),
});

/** A rotation's overlap: by default a day, at most a week; 0 replaces the secret at once. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
export const MAX_OVERLAP_SECONDS = 604_800;
/** Replaced secrets kept at once: with the current one, a delivery carries at most this many + 1 signatures. */
export const MAX_PREVIOUS_SECRETS = 4;

/** The replaced secrets that still sign a delivery made at `at`, the earliest replaced first. */
export const validPreviousSecrets = (sub: Pick<Subscription, 'previousSecrets'>, at: Date): string[] =>
  (sub.previousSecrets ?? []).filter((p) => Date.parse(p.expiresAt) > at.getTime()).map((p) => p.secret);

/**
 * A rotation: a new generated secret, and the current one kept valid for `overlapSeconds` beside those
 * still in their own overlap (the oldest dropped beyond MAX_PREVIOUS_SECRETS).
 */
export const rotatedSecrets = (sub: Pick<Subscription, 'secret' | 'previousSecrets'>, overlapSeconds: number, now: Date) => {
  const stillValid = (sub.previousSecrets ?? []).filter((p) => Date.parse(p.expiresAt) > now.getTime());
  const replaced =
    overlapSeconds > 0 ? [{ secret: sub.secret, expiresAt: new Date(now.getTime() + overlapSeconds * 1000).toISOString() }] : [];
  const previousSecrets = [...stillValid, ...replaced].slice(-MAX_PREVIOUS_SECRETS);
  return { secret: generateSecret(), previousSecrets };
};

/** Whether an event that occurred at `occurredAt` goes to this subscription. */
export const receives = (sub: Subscription, eventType: string, occurredAt: string): boolean =>
  sub.active && sub.activatedAt !== undefined && sub.activatedAt <= occurredAt && matchesAny(sub.events, eventType);

export const newSubscription = (_id: string, tenant: Tenant, input: SubscriptionInput, now: Date): Subscription => {
  const at = now.toISOString();
  const active = input.active ?? true;
  return {
    _id,
    workspaceId: tenant,
    url: input.url,
    events: input.events,
    active,
    secret: input.secret ?? generateSecret(),
    consecutiveFailures: 0,
    ...(active ? { activatedAt: at } : { deactivatedAt: at, deactivationReason: 'manual' as const }),
    createdAt: at,
    updatedAt: at,
  };
};

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((e) => b.includes(e));

/**
 * The fields a PATCH changes (`undefined` clears one), none when every value given equals the current one:
 * reactivation starts a new active period with a clean failure count.
 */
export const patchedFields = (before: Subscription, patch: SubscriptionPatch, at: string): Record<string, unknown> => {
  const fields: Record<string, unknown> = {};
  if (patch.url !== undefined && patch.url !== before.url) fields.url = patch.url;
  if (patch.events !== undefined && !sameEvents(patch.events, before.events)) fields.events = patch.events;
  if (patch.active === true && !before.active) {
    Object.assign(fields, {
      active: true,
      activatedAt: at,
      consecutiveFailures: 0,
      deactivatedAt: undefined,
      deactivationReason: undefined,
    });
  }
  if (patch.active === false && before.active) Object.assign(fields, { active: false, deactivatedAt: at, deactivationReason: 'manual' });
  return Object.keys(fields).length > 0 ? { ...fields, updatedAt: at } : fields;
};

/** Manual retries and test pings go to active subscriptions only. */
export const assertActive = (sub: Pick<Subscription, 'active'>): void => {
  if (!sub.active) throw new ConflictError('The subscription is inactive; reactivate it with PATCH {"active": true} first');
};
