import { afterAll, beforeAll, expect, it } from 'vitest';
import { useLogSink, type LogRecord } from '../../shared/log';
import { useMetricSink, type MetricRecord } from '../../shared/observability/metrics';
import { BROADCASTS, CHANNELS, CONVERSATIONS, CUSTOMERS } from '../support/channels';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { captureOutput } from '../support/captured-output';
import { useTestStack } from '../support/stack';
import { eventually } from '../support/webhooks';

const ctx = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

/** Every log line at debug and up, every metric, and everything else this process writes, while the file runs. */
const records: LogRecord[] = [];
const metrics: MetricRecord[] = [];
const written: string[] = [];
const undo: (() => void)[] = [];
let receiver: Receiver;
beforeAll(async () => {
  undo.push(
    useLogSink({ level: 'debug', write: (r) => records.push(r) }),
    useMetricSink((m) => metrics.push(m)),
    captureOutput(written),
  );
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const u of undo) u();
  await receiver?.stop();
});

const CANARY = {
  badToken: 'pk_test_canarybadtoken0000000000000000000000000',
  channelSecret: 'canary-channel-signing-secret',
  content: 'canary message content',
  broadcast: 'canary broadcast content',
  name: 'Canary Customername',
  email: 'canary.customer@example.com',
  body: 'canary-in-a-rejected-body',
  malformed: 'canary-in-malformed-json',
  header: 'canary-header-value',
  idempotencyKey: 'canary-idempotency-key',
};

it('no log line, metric or other output ever holds a token, secret, content, personal data, body or header value', {
  timeout: 120_000,
}, async () => {
  const { api, token } = await ctx.tenant();
  const sub = await api.post('/api/v1/integrations/webhooks', { url: receiver.url, events: ['*'] });
  expect(sub.status).toBe(201);
  const channel = await api.post(CHANNELS, {
    name: 'api',
    type: 'api',
    config: { url: receiver.url },
    secrets: { signingSecret: CANARY.channelSecret },
  });
  expect(channel.status).toBe(201);
  const channelId = channel.body.data.channel._id as string;

  const customer = await api.post(
    CUSTOMERS,
    { name: CANARY.name, email: CANARY.email },
    { 'x-canary': CANARY.header, 'Idempotency-Key': CANARY.idempotencyKey },
  );
  expect(customer.status).toBe(201);
  const customerId = customer.body.data.customer._id as string;
  const conversation = await api.post(CONVERSATIONS, { customerId, channelId });
  const conversationId = conversation.body.data.conversation._id as string;
  const reply = await api.post(`${CONVERSATIONS}/${conversationId}/messages`, { content: CANARY.content });
  expect(reply.status).toBe(201);
  const broadcast = await api.post(BROADCASTS, {
    name: 'b',
    channelId,
    audience: { customerIds: [customerId] },
    content: CANARY.broadcast,
  });
  expect((await api.post(`${BROADCASTS}/${broadcast.body.data.broadcast._id}/send`)).status).toBe(202);

  expect((await api.post(CUSTOMERS, { name: CANARY.body, unknown: CANARY.body })).status).toBe(422);
  expect((await api.post(CUSTOMERS, `{"name": "${CANARY.malformed}"`)).status).toBe(400);
  expect((await api.as({ token: CANARY.badToken }).get(CUSTOMERS)).status).toBe(401);

  // The reply reaches the channel's URL, the webhooks of the events the subscription's; the broadcast is sent to the customer.
  await eventually(async () => {
    const bodies = receiver.received.map((r) => r.body);
    return (
      bodies.some((b) => b.includes(CANARY.content)) &&
      bodies.some((b) => b.includes(CANARY.broadcast)) &&
      bodies.some((b) => b.includes('"inbox.message.sent"'))
    );
  }, 60_000);
  await eventually(
    async () => records.some((r) => r.message === 'webhook delivery attempt' && r.eventType === 'inbox.message.sent'),
    20_000,
  );
  await eventually(async () => records.some((r) => r.message === 'channel send' && r.broadcastId && r.recipientId === customerId), 30_000);

  const messages = new Set(records.map((r) => r.message));
  for (const expected of ['request', 'webhook fan-out', 'webhook delivery attempt', 'channel send']) expect(messages).toContain(expected);
  expect(metrics.map((m) => m.values[0]!.name)).toEqual(
    expect.arrayContaining(['Requests', 'AuthFailures', 'DeliveryAttempts', 'ReplySends', 'BroadcastSends']),
  );

  const haystack = [...records.map((r) => JSON.stringify(r)), ...metrics.map((m) => JSON.stringify(m)), ...written].join('\n');
  const secrets = {
    ...CANARY,
    token,
    webhookSecret: sub.body.data.subscription.secret as string,
    channelSigningSecret: channel.body.data.channel.signingSecret as string,
  };
  for (const [kind, value] of Object.entries(secrets)) expect(haystack.includes(value), `${kind} reached the logs`).toBe(false);
});
