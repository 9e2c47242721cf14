import * as z from 'zod';
import { DELIVERY_STATUSES, type Attempt, type publicDelivery } from '../domain/webhooks/delivery';
import type { publicSubscription } from '../domain/webhooks/subscription';
import type { deliveryDetail as deliveryDetailOf } from '../domain/webhooks/delivery-log';
import { LOGGED_BODY_BYTES } from '../domain/webhooks/logged-body';
import { HEALTH_WINDOW, type endpointHealth } from '../domain/webhooks/health';
import { MAX_RECOVERED, type Recovery } from '../domain/webhooks/recovery';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

/** A subscription as every response shows it: without its secret. */
export const subscription = /* @__PURE__ */ built(() =>
  exactly<ReturnType<typeof publicSubscription>>()(
    z.strictObject({
      _id: id,
      workspaceId: id,
      livemode: z.boolean(),
      url: z.string(),
      events: z.array(z.string()),
      active: z.boolean(),
      consecutiveFailures: z.number().int().min(0),
      activatedAt: time.optional(),
      deactivatedAt: time.optional(),
      deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).optional(),
      previousSecretsExpireAt: time
        .optional()
        .describe("When the last rotation's overlap ends (or ended): until then the replaced secrets sign deliveries too"),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'WebhookSubscription' }),
);

/** A subscription as its creation answers it: with its secret, shown this once. */
export const subscriptionWithSecret = /* @__PURE__ */ built(() =>
  subscription.extend({ secret: z.string() }).meta({ id: 'WebhookSubscriptionWithSecret' }),
);

export const attempt = /* @__PURE__ */ built(() =>
  exactly<Attempt>()(
    z.strictObject({
      attemptNumber: z.number().int().min(1),
      status: z.enum(['success', 'failed']),
      httpStatus: z.number().int().optional(),
      latency: z.number().int().min(0),
      failureReason: z.string().optional(),
      at: time,
    }),
  ).meta({ id: 'WebhookAttempt' }),
);

/** A delivery as the log lists it: without its payload and attempts. */
export const deliverySummary = /* @__PURE__ */ built(() =>
  exactly<ReturnType<typeof publicDelivery>>()(
    z.strictObject({
      deliveryId: id,
      subscriptionId: id,
      eventId: id,
      eventType: z.string(),
      status: z.enum(DELIVERY_STATUSES),
      httpStatus: z.number().int().nullable(),
      latency: z.number().int().min(0).nullable(),
      attemptNumber: z.number().int().min(0),
      nextRetryAt: time.nullable(),
      nextAttemptAt: time
        .nullable()
        .describe(
          'When the next attempt is due, for a pending or retrying delivery (its first, a retry, or a manual one); null once it succeeded or failed',
        ),
      failureReason: z.string().nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'WebhookDeliverySummary' }),
);

/** One delivery with every attempt made so far. */
export const delivery = /* @__PURE__ */ built(() => deliverySummary.extend({ attempts: z.array(attempt) }).meta({ id: 'WebhookDelivery' }));

const loggedBody = /* @__PURE__ */ built(() => ({
  body: z.string().describe(`The first ${LOGGED_BODY_BYTES} bytes of the body, as text`),
  bodyTruncated: z.boolean().describe(`Whether the body was longer than ${LOGGED_BODY_BYTES} bytes and was cut`),
}));

/** An attempt as the delivery log details it: what was sent and what came back. */
export const attemptDetail = /* @__PURE__ */ built(() =>
  attempt
    .extend({
      request: z.strictObject({
        headers: z.record(z.string(), z.string()).describe('The headers sent, without the signature headers (derived from the secret)'),
        ...loggedBody,
      }),
      response: z.strictObject(loggedBody).nullable().describe('The body received; null when no response came (timeout, connection error)'),
    })
    .meta({ id: 'WebhookAttemptDetail' }),
);

/** One delivery with every attempt detailed, as `GET …/deliveries/{deliveryId}` answers it. */
export const deliveryDetail = /* @__PURE__ */ built(() =>
  exactly<ReturnType<typeof deliveryDetailOf>>()(deliverySummary.extend({ attempts: z.array(attemptDetail) })).meta({
    id: 'WebhookDeliveryDetail',
  }),
);

/** An endpoint's health, from its latest deliveries and its failure count. */
export const health = /* @__PURE__ */ built(() =>
  exactly<ReturnType<typeof endpointHealth>>()(
    z.strictObject({
      subscriptionId: id,
      active: z.boolean(),
      consecutiveFailures: z
        .number()
        .int()
        .min(0)
        .describe('Deliveries in a row whose first five attempts all failed; any success resets it'),
      deactivateAfter: z.number().int().describe('The consecutive failures that deactivate the subscription'),
      deactivatedAt: time.nullable(),
      deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).nullable(),
      recent: z.strictObject({
        deliveries: z.number().int().min(0).describe(`How many of the latest deliveries were looked at (at most ${HEALTH_WINDOW})`),
        succeeded: z.number().int().min(0),
        failed: z.number().int().min(0),
        inProgress: z.number().int().min(0).describe('Pending or retrying'),
        successRate: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe('succeeded / (succeeded + failed), to three decimals; null when none finished'),
      }),
    }),
  ).meta({ id: 'WebhookEndpointHealth' }),
);

/** An entry of the event catalog, with the JSON Schema of its `data`. */
export const eventType = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      type: z.string(),
      category: z.string(),
      readScope: z
        .string()
        .nullable()
        .describe(
          'The scope a token needs to see this type in the events log and on the realtime socket (null: it is sent to webhooks only)',
        ),
      status: z.enum(['available', 'planned']),
      subscribable: z.boolean().describe("Whether a subscription's `events` may name it (`webhook.ping` is sent by the test route alone)"),
      description: z.string(),
      dataSchema: z.record(z.string(), z.unknown()),
    })
    .meta({ id: 'WebhookEventType' }),
);

/** A recovery: the failed deliveries created in [since, until) that it re-sent. */
export const recovery = /* @__PURE__ */ built(() =>
  exactly<Recovery>()(
    z.strictObject({
      _id: id,
      since: time,
      until: time,
      deliveries: z
        .number()
        .int()
        .min(0)
        .describe(`Failed deliveries this call re-sent (at most ${MAX_RECOVERED}, the oldest first; call again for the rest)`),
    }),
  ).meta({ id: 'WebhookRecovery' }),
);
