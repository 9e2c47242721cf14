import { OUTBOX_PATTERN } from '../../shared/events/from-bus';
import type { Access, EventRule, HttpMethod, HttpRoute, KeySpec, QueueSpec, ScheduleSpec } from './types';

export const CHANNEL_QUEUE = 'channel-sends';
export const BROADCAST_QUEUE = 'broadcast-sends';
/** The KMS key channel secrets are sealed with (a wiring name, like a queue's). */
export const CHANNEL_SECRETS_KEY = 'channel-secrets';

const read: Access = { table: 'read' };
const write: Access = { table: 'write' };
const seal: Access = { table: 'write', keys: { [CHANNEL_SECRETS_KEY]: ['encrypt'] } };
const reseal: Access = { table: 'write', keys: { [CHANNEL_SECRETS_KEY]: ['encrypt', 'decrypt'] } };
const open = (queues: string[] = []): Access => ({ table: 'write', queues, keys: { [CHANNEL_SECRETS_KEY]: ['decrypt'] } });
const startBroadcasts: Access = { table: 'write', queues: [BROADCAST_QUEUE] };

const route = (area: 'channels' | 'broadcasts', method: HttpMethod, path: string, file: string, access: Access, summary: string): HttpRoute => ({
  method,
  path: `/api/v1/${area}${path}`,
  handler: `functions/http/${area}/${file}.ts`,
  access,
  summary,
});

const routes: HttpRoute[] = [
  route('channels', 'POST', '', 'create-channel', seal, 'Connect a channel account (api, email or sandbox); the signing secret is returned once'),
  route('channels', 'GET', '', 'list-channels', read, "List the workspace's channel accounts"),
  route('channels', 'GET', '/{id}', 'get-channel', read, 'One channel account (secrets are never shown)'),
  route('channels', 'PATCH', '/{id}', 'update-channel', reseal, "Change a channel account's name, rate, config or secrets"),
  route('channels', 'DELETE', '/{id}', 'delete-channel', write, 'Delete a channel account'),
  route('channels', 'POST', '/{id}/connect', 'connect-channel', write, 'Reconnect a disconnected or errored account'),
  route('channels', 'POST', '/{id}/disconnect', 'disconnect-channel', write, 'Disconnect an account: nothing is sent through it'),
  route('channels', 'GET', '/{id}/status', 'get-channel-status', read, "An account's connection status and last error"),
  route('channels', 'POST', '/{id}/inbound', 'receive-inbound', open(), 'A provider call: incoming message, raw email or status receipt (HMAC-signed)'),
  route('broadcasts', 'POST', '', 'create-broadcast', write, 'Create a draft broadcast'),
  route('broadcasts', 'GET', '', 'list-broadcasts', read, 'List broadcasts, newest first, with their stats'),
  route('broadcasts', 'GET', '/{id}', 'get-broadcast', read, 'One broadcast with its stats'),
  route('broadcasts', 'PATCH', '/{id}', 'update-broadcast', write, 'Edit a draft broadcast'),
  route('broadcasts', 'DELETE', '/{id}', 'delete-broadcast', write, 'Delete a draft or finished broadcast'),
  route('broadcasts', 'POST', '/{id}/schedule', 'schedule-broadcast', startBroadcasts, 'Schedule a draft (or move a scheduled) broadcast'),
  route('broadcasts', 'POST', '/{id}/send', 'send-broadcast', startBroadcasts, 'Start sending a draft or scheduled broadcast now (202)'),
  route('broadcasts', 'POST', '/{id}/cancel', 'cancel-broadcast', write, 'Cancel a broadcast: recipients not yet sent to never are'),
  route('broadcasts', 'GET', '/{id}/recipients', 'list-recipients', read, "A broadcast's recipients with their status"),
];

/**
 * Visibility 90 s (6x the worker's 15 s, for throttled invocations) > lease 20 s > worker timeout 15 s > one
 * provider call (10 s), so a send is in flight once unless its worker died; its message then comes back
 * after its lease expired. Retries and throttle waits re-receive the same message (visibility), so
 * maxReceiveCount leaves room for them. Messages live 4 days, far inside the DLQ's 14.
 */
const queue = (name: string, urlEnv: string, dlqEnv: string, handler: string, access: Access): QueueSpec => ({
  name,
  urlEnv,
  visibilityTimeoutSeconds: 90,
  retentionDays: 4,
  dlq: { name: `${name}-dlq`, urlEnv: dlqEnv, maxReceiveCount: 100 },
  consumer: { handler, access, timeoutSeconds: 15, batchSize: 10, maxConcurrency: 5 },
  ageAlarmSeconds: 600,
});

const queues: QueueSpec[] = [
  queue(CHANNEL_QUEUE, 'CHANNEL_QUEUE_URL', 'CHANNEL_DLQ_URL', 'functions/queues/send-channel-message.ts', open()),
  queue(BROADCAST_QUEUE, 'BROADCAST_QUEUE_URL', 'BROADCAST_DLQ_URL', 'functions/queues/send-broadcast.ts', open([BROADCAST_QUEUE])),
];

const rules: EventRule[] = [
  {
    name: 'channel-dispatch',
    // Every outbox event: the function picks the replies on conversations that have a channel account.
    pattern: OUTBOX_PATTERN,
    target: { handler: 'functions/events/dispatch-channel-messages.ts', access: { table: 'read', queues: [CHANNEL_QUEUE] }, timeoutSeconds: 30 },
  },
];

const schedules: ScheduleSpec[] = [
  { name: 'start-due-broadcasts', everyMinutes: 1, target: { handler: 'functions/schedules/start-due-broadcasts.ts', access: { table: 'read', queues: [BROADCAST_QUEUE] }, timeoutSeconds: 60 } },
];

const keys: KeySpec[] = [{ name: CHANNEL_SECRETS_KEY, idEnv: 'CHANNEL_SECRETS_KEY_ID', description: 'Seals channel account secrets (encryption context: workspace and channel)' }];

export const channelsWiring = { routes, queues, rules, schedules, keys };
