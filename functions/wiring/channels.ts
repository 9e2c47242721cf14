import { outboxPatternOf } from '../../shared/events/from-bus';
import { FILES_BUCKET } from './files';
import { areaRoutes } from './route';
import type { Access, AreaWiring, EventRule, KeySpec, QueueSpec, ScheduleSpec } from './types';

const CHANNEL_QUEUE = 'channel-sends';
export const BROADCAST_QUEUE = 'broadcast-sends';
/** The KMS key channel secrets are sealed with (a wiring name, like a queue's). */
export const CHANNEL_SECRETS_KEY = 'channel-secrets';

const seal: Access = { table: 'write', keys: { [CHANNEL_SECRETS_KEY]: ['encrypt'] } };
const reseal: Access = { table: 'write', keys: { [CHANNEL_SECRETS_KEY]: ['encrypt', 'decrypt'] } };
const open = (queues: string[] = []): Access => ({ table: 'write', queues, keys: { [CHANNEL_SECRETS_KEY]: ['decrypt'] } });
const startBroadcasts: Access = { table: 'write', queues: [BROADCAST_QUEUE] };

const CHANNELS = '/api/v1/channels';
const BROADCASTS = '/api/v1/broadcasts';
const channel = areaRoutes('channels');
const broadcast = areaRoutes('broadcasts');

const routes = [
  channel('POST', CHANNELS, 'create-channel', 'Connect a channel account (api, email or sandbox); the signing secret is returned once', {
    access: seal,
  }),
  channel('GET', CHANNELS, 'list-channels', "List the workspace's channel accounts"),
  channel('GET', `${CHANNELS}/{id}`, 'get-channel', 'One channel account (secrets are never shown)'),
  channel('PATCH', `${CHANNELS}/{id}`, 'update-channel', "Change a channel account's name, rate, config or secrets", { access: reseal }),
  channel('DELETE', `${CHANNELS}/{id}`, 'delete-channel', 'Delete a channel account'),
  channel('POST', `${CHANNELS}/{id}/connect`, 'connect-channel', 'Reconnect a disconnected or errored account'),
  channel('POST', `${CHANNELS}/{id}/disconnect`, 'disconnect-channel', 'Disconnect an account: nothing is sent through it'),
  channel('GET', `${CHANNELS}/{id}/status`, 'get-channel-status', "An account's connection status and last error"),
  channel(
    'POST',
    `${CHANNELS}/{id}/inbound`,
    'receive-inbound',
    'A provider call: incoming message, raw email or status receipt (HMAC-signed)',
    // A raw email's attachments become files: stored, then verified at once (first bytes; a rejected one deleted).
    { access: { ...open(), buckets: { [FILES_BUCKET]: ['write', 'read', 'delete'] } } },
  ),
  broadcast('POST', BROADCASTS, 'create-broadcast', 'Create a draft broadcast'),
  broadcast('GET', BROADCASTS, 'list-broadcasts', 'List broadcasts, newest first, with their stats'),
  broadcast('GET', `${BROADCASTS}/{id}`, 'get-broadcast', 'One broadcast with its stats'),
  broadcast('PATCH', `${BROADCASTS}/{id}`, 'update-broadcast', 'Edit a draft broadcast'),
  broadcast('DELETE', `${BROADCASTS}/{id}`, 'delete-broadcast', 'Delete a draft or finished broadcast'),
  broadcast('POST', `${BROADCASTS}/{id}/schedule`, 'schedule-broadcast', 'Schedule a draft (or move a scheduled) broadcast', {
    access: startBroadcasts,
  }),
  broadcast('POST', `${BROADCASTS}/{id}/send`, 'send-broadcast', 'Start sending a draft or scheduled broadcast now (202)', {
    access: startBroadcasts,
  }),
  broadcast('POST', `${BROADCASTS}/{id}/cancel`, 'cancel-broadcast', 'Cancel a broadcast: recipients not yet sent to never are'),
  broadcast('GET', `${BROADCASTS}/{id}/recipients`, 'list-recipients', "A broadcast's recipients with their status"),
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
  // The email channel streams each attachment from the bucket into its MIME part.
  queue(CHANNEL_QUEUE, 'CHANNEL_QUEUE_URL', 'CHANNEL_DLQ_URL', 'functions/queues/send-channel-message.ts', {
    ...open(),
    buckets: { [FILES_BUCKET]: ['read'] },
  }),
  queue(BROADCAST_QUEUE, 'BROADCAST_QUEUE_URL', 'BROADCAST_DLQ_URL', 'functions/queues/send-broadcast.ts', open([BROADCAST_QUEUE])),
];

const rules: EventRule[] = [
  {
    name: 'channel-dispatch',
    // Replies only: the function queues those on conversations that have a channel account.
    pattern: outboxPatternOf(['inbox.message.sent']),
    target: {
      handler: 'functions/events/dispatch-channel-messages.ts',
      access: { table: 'read', queues: [CHANNEL_QUEUE] },
      timeoutSeconds: 30,
    },
  },
];

const schedules: ScheduleSpec[] = [
  {
    name: 'start-due-broadcasts',
    everyMinutes: 1,
    target: {
      handler: 'functions/schedules/start-due-broadcasts.ts',
      access: { table: 'read', queues: [BROADCAST_QUEUE] },
      timeoutSeconds: 60,
    },
  },
];

const keys: KeySpec[] = [
  {
    name: CHANNEL_SECRETS_KEY,
    idEnv: 'CHANNEL_SECRETS_KEY_ID',
    description: 'Seals channel account secrets (encryption context: workspace and channel)',
  },
];

export const channelsWiring = { routes, queues, rules, schedules, keys } satisfies AreaWiring;
