import { OUTBOX_PATTERN } from '../../shared/events/from-bus';
import { areaRoutes } from './route';
import type { AreaWiring, EventRule, QueueSpec, ScheduleSpec } from './types';

const QUEUE = 'webhook-deliveries';
const DLQ = 'webhook-deliveries-dlq';
const base = '/api/v1/integrations/webhooks';
const route = areaRoutes('webhooks');
const writeAndEnqueue = { table: 'write', queues: [QUEUE] } as const;

const routes = [
  route('POST', base, 'create-subscription', 'Create a webhook subscription (the secret is returned once)'),
  route('GET', base, 'list-subscriptions', "List the workspace's webhook subscriptions"),
  route('GET', `${base}/event-types`, 'list-event-types', 'The event catalog and wildcards'),
  route('GET', `${base}/{id}`, 'get-subscription', 'One webhook subscription'),
  route(
    'GET',
    `${base}/{id}/health`,
    'get-health',
    'Success rate of the latest deliveries, consecutive failures, and why and when it was deactivated',
  ),
  route('PATCH', `${base}/{id}`, 'update-subscription', 'Update events, url or active'),
  route('DELETE', `${base}/{id}`, 'delete-subscription', 'Delete a webhook subscription'),
  route(
    'POST',
    `${base}/{id}/rotate-secret`,
    'rotate-secret',
    'Rotate the signing secret (the new one is returned once); the old one keeps signing for an overlap',
  ),
  route('POST', `${base}/{id}/test`, 'send-test-event', 'Send a webhook.ping event', { access: writeAndEnqueue }),
  route('GET', `${base}/{id}/deliveries`, 'list-deliveries', 'Delivery log, filterable by status and eventType'),
  route('GET', `${base}/{id}/deliveries/{deliveryId}`, 'get-delivery', 'One delivery with every attempt'),
  route(
    'POST',
    `${base}/{id}/recover`,
    'recover-deliveries',
    'Re-send every failed delivery created in [since, until), each exactly once',
    { access: writeAndEnqueue },
  ),
  route('POST', `${base}/{id}/retry/{deliveryId}`, 'retry-delivery', 'Retry a failed delivery now', { access: writeAndEnqueue }),
];

/**
 * Visibility 120 s (6x the worker's 20 s, for throttled invocations) > lease 25 s > worker timeout 20 s > one
 * attempt (10 s HTTP timeout, batch in parallel), so a delivery is never in flight twice and a crashed
 * worker's message comes back after its lease expired. Retries re-receive the same message (visibility
 * backoff), so maxReceiveCount leaves room for a full 24 h schedule (12 attempts) and for 100 minutes of
 * throttled receives; a delivery that fails for good is parked in the DLQ by the worker itself. Messages
 * live 7 days, half the DLQ's 14, so a dead-lettered one has a week left for its redrive.
 */
const queues: QueueSpec[] = [
  {
    name: QUEUE,
    urlEnv: 'WEBHOOK_QUEUE_URL',
    visibilityTimeoutSeconds: 120,
    retentionDays: 7,
    dlq: { name: DLQ, urlEnv: 'WEBHOOK_DLQ_URL', maxReceiveCount: 50 },
    consumer: {
      handler: 'functions/queues/deliver-webhook.ts',
      access: { table: 'write', queues: [DLQ] },
      timeoutSeconds: 20,
      batchSize: 10,
      maxConcurrency: 10,
    },
  },
];

const rules: EventRule[] = [
  {
    name: 'webhook-fanout',
    pattern: OUTBOX_PATTERN,
    target: { handler: 'functions/events/webhook-fanout.ts', access: writeAndEnqueue, timeoutSeconds: 30 },
  },
];

const schedules: ScheduleSpec[] = [
  {
    name: 'requeue-webhook-deliveries',
    everyMinutes: 1,
    target: { handler: 'functions/schedules/requeue-webhook-deliveries.ts', access: writeAndEnqueue, timeoutSeconds: 60 },
  },
];

export const webhooksWiring = { routes, queues, rules, schedules } satisfies AreaWiring;
