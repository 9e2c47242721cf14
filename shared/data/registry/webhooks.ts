import * as z from 'zod';
import { tenantField } from '../../domain/auth/tenant';
import { DELIVERY_STATUSES, type Delivery } from '../../domain/webhooks/delivery';
import type { Subscription } from '../../domain/webhooks/subscription';
import { exactly } from '../../views/common';
import { attempt } from '../../views/webhooks';
import { declare } from './define';

export const subscription = /* @__PURE__ */ declare({
  name: 'Webhook subscription',
  itemTypes: ['WEBHOOK_SUBSCRIPTION'],
  personal: [],
  about: 'A webhook endpoint with its signing secrets; every subscription of every workspace is in one index, the sweeper’s walk.',
  prefixes: ['WHSUB', 'WEBHOOK_SUBSCRIPTIONS'],
  keys: { pk: 'WS#<tenant>', sk: 'WHSUB#<id>', gsi1pk: 'WEBHOOK_SUBSCRIPTIONS', gsi1sk: '<workspaceId>#<id>' },
  patterns: [
    { read: 'subscription by id', by: 'pk=<tenant> sk=WHSUB#<id>' },
    { read: 'subscriptions of a workspace', by: 'pk=<tenant> sk begins_with WHSUB#' },
    { read: 'every subscription (sweeper)', by: 'gsi1pk=WEBHOOK_SUBSCRIPTIONS', index: 'gsi1' },
  ],
  /** A stored subscription, secrets included; an item from before failures were counted reads 0. */
  schema: () =>
    exactly<Subscription>()(
      z.object({
        _id: z.string(),
        workspaceId: tenantField,
        url: z.string(),
        events: z.array(z.string()),
        active: z.boolean(),
        secret: z.string(),
        previousSecrets: z.array(z.object({ secret: z.string(), expiresAt: z.string() })).optional(),
        consecutiveFailures: z
          .number()
          .optional()
          .transform((n) => n ?? 0),
        activatedAt: z.string().optional(),
        deactivatedAt: z.string().optional(),
        deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).optional(),
        createdAt: z.string(),
        updatedAt: z.string(),
      }),
    ),
});

export const subscriptionUrlLock = /* @__PURE__ */ declare({
  name: 'Webhook URL lock',
  itemTypes: ['WEBHOOK_URL_LOCK'],
  personal: [],
  about: "Holds a subscription's URL unique in its workspace, by the URL's SHA-256.",
  prefixes: ['WHURL'],
  keys: { pk: 'WS#<tenant>#WHURL#<urlHash>', sk: 'WHURL' },
  patterns: [{ read: 'URL taken (a conditional create)', by: 'pk=<tenant>#WHURL#<sha256 of url> sk=WHURL' }],
  schema: () => z.object({ subscriptionId: z.string() }),
});

export const subscriptionCount = /* @__PURE__ */ declare({
  name: 'Webhook subscription count',
  itemTypes: [],
  personal: [],
  about: "A workspace's exact count of subscriptions, bounded by a conditional bump.",
  prefixes: ['WHSUB_COUNT'],
  keys: { pk: 'WS#<tenant>', sk: 'WHSUB_COUNT' },
  patterns: [{ read: 'subscription count', by: 'pk=<tenant> sk=WHSUB_COUNT' }],
  schema: () => z.object({ n: z.number().default(0) }),
});

/** Internal bookkeeping stored beside the delivery: who holds the attempt lease, and which message carries it. */
export interface DeliveryItem extends Delivery {
  leaseUntil?: number;
  carrier?: string;
}

export const delivery = /* @__PURE__ */ declare({
  name: 'Webhook delivery',
  itemTypes: ['WEBHOOK_DELIVERY'],
  personal: [],
  about:
    'A delivery of one event to one subscription; while it is pending, retrying or failed, its one index entry names its status (a success leaves the index). Kept 30 days (TTL).',
  prefixes: ['DLV', 'STATUS'],
  keys: {
    pk: 'WS#<tenant>#WHSUB#<subscriptionId>',
    sk: 'DLV#<deliveryId>',
    gsi2pk: 'WS#<tenant>#WHSUB#<subscriptionId>#STATUS#<status>',
    gsi2sk: '<deliveryId>',
  },
  patterns: [
    { read: 'delivery by id; the log; its exact total (a key-only COUNT)', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLV#' },
    {
      read: 'pending, retrying or failed deliveries, and their exact total',
      by: 'gsi2pk=<tenant>#WHSUB#<sub>#STATUS#<status>',
      index: 'gsi2',
    },
    { read: 'succeeded deliveries, and their exact total: the log, filtered on status', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLV#' },
    {
      read: 'deliveries by event type (± status): the same partitions in turn, filtered on eventType',
      by: 'gsi2pk=<tenant>#WHSUB#<sub>#STATUS#<status>',
      index: 'gsi2',
    },
  ],
  schema: () =>
    exactly<DeliveryItem>()(
      z.object({
        deliveryId: z.string(),
        workspaceId: tenantField,
        subscriptionId: z.string(),
        eventId: z.string(),
        eventType: z.string(),
        status: z.enum(DELIVERY_STATUSES),
        attemptNumber: z.number(),
        httpStatus: z.number().optional(),
        latency: z.number().optional(),
        failureReason: z.string().optional(),
        nextRetryAt: z.string().optional(),
        attempts: z.array(attempt),
        roundStartAttempt: z.number(),
        roundStartedAt: z.string().optional(),
        subscriptionActivatedAt: z.string(),
        failureCounted: z.boolean(),
        createdAt: z.string(),
        updatedAt: z.string(),
        leaseUntil: z.number().optional(),
        carrier: z.string().optional(),
      }),
    ),
});

export const responseBody = /* @__PURE__ */ declare({
  name: 'Webhook response body',
  itemTypes: ['WEBHOOK_RESPONSE_BODY'],
  personal: ['body'],
  about: "The first bytes of an attempt's response body, beside its delivery (never indexed) and kept as long as it is.",
  prefixes: ['DLVBODY'],
  keys: { pk: 'WS#<tenant>#WHSUB#<subscriptionId>', sk: 'DLVBODY#<deliveryId>#<attempt>' },
  patterns: [{ read: 'response bodies of a delivery', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLVBODY#<delivery id>#' }],
  schema: () => z.object({ body: z.instanceof(Uint8Array) }),
});
