import { OUTBOX_PATTERN } from '../../shared/events/from-bus';
import type { EventRule, HttpRoute, QueueSpec, ScheduleSpec } from './types';

const QUEUE = 'webhook-deliveries';
const DLQ = 'webhook-deliveries-dlq';
const base = '/api/v1/integrations/webhooks';
const fn = (name: string) => `functions/http/webhooks/${name}.ts`;
const read = { table: 'read' } as const;
const write = { table: 'write' } as const;
const writeAndEnqueue = { table: 'write', queues: [QUEUE] } as const;

const routes: HttpRoute[] = [
  { method: 'POST', path: base, handler: fn('create-subscription'), access: write, summary: 'Create a webhook subscription (the secret is returned once)' },
  { method: 'GET', path: base, handler: fn('list-subscriptions'), access: read, summary: "List the workspace's webhook subscriptions" },
  { method: 'GET', path: `${base}/event-types`, handler: fn('list-event-types'), access: read, summary: 'The event catalog and wildcards' },
  { method: 'GET', path: `${base}/{id}`, handler: fn('get-subscription'), access: read, summary: 'One webhook subscription' },
  { method: 'GET', path: `${base}/{id}/health`, handler: fn('get-health'), access: read, summary: 'Success rate of the latest deliveries, consecutive failures, and why and when it was deactivated' },
  { method: 'PATCH', path: `${base}/{id}`, handler: fn('update-subscription'), access: write, summary: 'Update events, url or active' },
  { method: 'DELETE', path: `${base}/{id}`, handler: fn('delete-subscription'), access: write, summary: 'Delete a webhook subscription' },
  { method: 'POST', path: `${base}/{id}/rotate-secret`, handler: fn('rotate-secret'), access: write, summary: 'Rotate the signing secret (the new one is returned once); the old one keeps signing for an overlap' },
  { method: 'POST', path: `${base}/{id}/test`, handler: fn('send-test-event'), access: writeAndEnqueue, summary: 'Send a webhook.ping event' },
  { method: 'GET', path: `${base}/{id}/deliveries`, handler: fn('list-deliveries'), access: read, summary: 'Delivery log, filterable by status and eventType' },
  { method: 'GET', path: `${base}/{id}/deliveries/{deliveryId}`, handler: fn('get-delivery'), access: read, summary: 'One delivery with every attempt' },
  { method: 'POST', path: `${base}/{id}/recover`, handler: fn('recover-deliveries'), access: writeAndEnqueue, summary: 'Re-send every failed delivery created in [since, until), each exactly once' },
  { method: 'POST', path: `${base}/{id}/retry/{deliveryId}`, handler: fn('retry-delivery'), access: writeAndEnqueue, summary: 'Retry a failed delivery now' },
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

export const webhooksWiring = { routes, queues, rules, schedules };
