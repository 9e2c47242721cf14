import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import {
  CHANNELS,
  CONVERSATIONS,
  conversationOn,
  createChannel,
  messageIn,
  postInbound,
  sandboxSend,
  storedChannelItem,
} from '../support/channels';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { outboxEvents } from '../support/outbox';
import { captureOutput } from '../support/captured-output';
import { useTestStack } from '../support/stack';
import { eventually, verifyDelivery } from '../support/webhooks';

// Every log line, debug included, is captured below and searched for secrets (config is read on first use, after this).
process.env.LOG_LEVEL = 'debug';
const ctx = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

/** Everything this process writes to stdout and stderr while the file runs: the in-process functions' logs. */
const logged: string[] = [];
let restoreOutput: (() => void) | undefined;
let receiver: Receiver;
beforeAll(async () => {
  restoreOutput = captureOutput(logged);
  receiver = await startReceiver((req) => (JSON.parse(req.body).content === 'refuse me' ? { status: 401 } : { status: 200 }));
});
afterAll(async () => {
  restoreOutput?.();
  await receiver?.stop();
});

const SMTP_PASSWORD = 'smtp-password-that-must-never-leak';

describe('channel accounts', () => {
  it('are created connected, listed, updated and deleted; secrets are write-only and never stored in plaintext', async () => {
    const { api, tenant } = await ctx.tenant();
    const signingSecret = 'chs_a-signing-secret-given-by-the-owner';
    const created = await createChannel(api, {
      type: 'email',
      config: { from: 'support@example.com', host: '127.0.0.1', port: 2525 },
      secrets: { signingSecret, smtpPassword: SMTP_PASSWORD },
    });
    expect(created).toMatchObject({
      type: 'email',
      status: 'connected',
      signingSecret,
      secretNames: ['signingSecret', 'smtpPassword'],
      ratePerSecond: 20,
    });

    const got = await api.get(`${CHANNELS}/${created._id}`);
    const listed = await api.get(CHANNELS);
    const patched = await api.patch(`${CHANNELS}/${created._id}`, {
      name: 'Support inbox',
      secrets: { smtpPassword: `${SMTP_PASSWORD}-2` },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.channel.name).toBe('Support inbox');
    for (const res of [got, listed, patched]) {
      expect(JSON.stringify(res.body)).not.toContain(SMTP_PASSWORD);
      expect(JSON.stringify(res.body)).not.toContain(signingSecret);
    }
    expect(listed.body.data.pagination.total).toBe(1);

    const item = (await storedChannelItem(tenant, created._id))!;
    // Sealed by KMS Encrypt, as on AWS (locally answered by the KMS stand-in).
    expect(item.sealedSecrets).toMatch(/^kms:/);
    expect(JSON.stringify(item)).not.toContain(SMTP_PASSWORD);
    expect(JSON.stringify(item)).not.toContain(signingSecret);

    expect((await api.delete(`${CHANNELS}/${created._id}`)).status).toBe(200);
    expectError(await api.get(`${CHANNELS}/${created._id}`), 404, 'NOT_FOUND');
  });

  it('disconnect and connect move the status, each with its event; a repeat is 409', async () => {
    const { api, workspaceId } = await ctx.tenant();
    const channel = await createChannel(api, { type: 'sandbox' });
    const off = await api.post(`${CHANNELS}/${channel._id}/disconnect`);
    expect(off.body.data.channel.status).toBe('disconnected');
    expectError(await api.post(`${CHANNELS}/${channel._id}/disconnect`), 409, 'CONFLICT');
    expect((await api.get(`${CHANNELS}/${channel._id}/status`)).body.data.status).toMatchObject({ status: 'disconnected', canSend: false });
    expect((await api.post(`${CHANNELS}/${channel._id}/connect`)).body.data.channel.status).toBe('connected');
    const types = (await outboxEvents(workspaceId)).map((e) => e.eventType).filter((t) => t.startsWith('channel.account.'));
    expect(types).toEqual(['channel.account.connected', 'channel.account.disconnected', 'channel.account.connected']);
  });

  it('ids from another workspace are 404 on every channel route', async () => {
    const owner = await ctx.tenant();
    const other = await ctx.tenant();
    const channel = await createChannel(owner.api, { type: 'sandbox' });
    const path = `${CHANNELS}/${channel._id}`;
    for (const res of [
      await other.api.get(path),
      await other.api.get(`${path}/status`),
      await other.api.patch(path, { name: 'x' }),
      await other.api.post(`${path}/disconnect`),
      await postInbound(other.api, channel._id, channel.signingSecret, { type: 'status', id: 'x', status: 'delivered' }),
      await other.api.delete(path),
    ]) {
      expectError(res, 404, 'NOT_FOUND');
    }
    expectError(await other.api.post(CONVERSATIONS, { customerId: '0'.repeat(24), channelId: channel._id }), 422, 'VALIDATION_ERROR');
  });

  it('refuses an api URL that points at a private address when private targets are not allowed', async () => {
    const { api } = await ctx.tenant();
    expectError(await api.post(CHANNELS, { type: 'api', name: 'x', config: { url: 'http://example.com/hook' } }), 422, 'VALIDATION_ERROR');
  });
});

describe('outgoing replies', () => {
  it('a sandbox reply goes pending → sent → delivered → read, with its channel.message events, sent once', async () => {
    const { api, tenant, workspaceId } = await ctx.tenant();
    const channel = await createChannel(api, { type: 'sandbox', config: { deliver: true, read: true } });
    const { conversation } = await conversationOn(api, channel._id);
    expect(conversation.channelId).toBe(channel._id);
    const posted = await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Hello from the sandbox' });
    expect(posted.body.data.message.deliveryStatus).toBe('pending');
    const id = posted.body.data.message._id;
    const read = await eventually(async () => {
      const m = await messageIn(api, conversation._id, id);
      return m.deliveryStatus === 'read' && m;
    }, 30_000);
    expect(read.failureReason).toBeNull();
    expect((await sandboxSend(tenant, channel._id, id))!.sends).toBe(1);
    const events = (await outboxEvents(workspaceId)).filter((e) => e.eventType.startsWith('channel.message.'));
    expect(events.filter((e) => e.eventType === 'channel.message.status_changed').map((e) => e.changes!.deliveryStatus)).toEqual([
      ['pending', 'sent'],
      ['sent', 'delivered'],
      ['delivered', 'read'],
    ]);
    expect(events.filter((e) => e.eventType !== 'channel.message.status_changed').map((e) => e.eventType)).toEqual([
      'channel.message.sent',
      'channel.message.delivered',
      'channel.message.read',
    ]);
  });

  it('a sandbox configured to fail marks the reply failed with its reason; a disconnected account fails it too', async () => {
    const { api } = await ctx.tenant();
    const failing = await createChannel(api, { type: 'sandbox', config: { failWith: 'invalid_recipient' } });
    const off = await createChannel(api, { type: 'sandbox' });
    await api.post(`${CHANNELS}/${off._id}/disconnect`);
    for (const [channel, reason] of [
      [failing, 'invalid_recipient'],
      [off, 'channel_disconnected'],
    ] as const) {
      const { conversation } = await conversationOn(api, channel._id);
      const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Will fail' })).body.data.message._id;
      const m = await eventually(async () => {
        const found = await messageIn(api, conversation._id, id);
        return found.deliveryStatus === 'failed' && found;
      });
      expect(m.failureReason).toBe(reason);
    }
  });

  it('an api channel POSTs the reply signed like a webhook; an HMAC-verified inbound message and status callback come back', async () => {
    const { api } = await ctx.tenant();
    const channel = await createChannel(api, { type: 'api', config: { url: receiver.url } });
    const { conversation, customer } = await conversationOn(api, channel._id);
    const before = receiver.received.length;
    const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Over the api channel' })).body.data.message._id;
    const [req] = (await eventually(async () => {
      const mine = receiver.received.slice(before).filter((r) => JSON.parse(r.body).id === id);
      return mine.length > 0 && mine;
    }))!;
    const body = await verifyDelivery(channel.signingSecret, req!);
    expect(body).toMatchObject({
      id,
      type: 'outgoing_message',
      channelId: channel._id,
      content: 'Over the api channel',
      to: { customerId: customer._id },
    });
    expect(req!.headers['idempotency-key']).toBe(id);
    await eventually(async () => (await messageIn(api, conversation._id, id)).deliveryStatus === 'sent');

    const receipt = await postInbound(api, channel._id, channel.signingSecret, { type: 'status', id, status: 'delivered' });
    expect(receipt.status).toBe(200);
    expect((await messageIn(api, conversation._id, id)).deliveryStatus).toBe('delivered');

    const incoming = await postInbound(api, channel._id, channel.signingSecret, {
      type: 'message',
      customer: { identifier: 'ext-42', name: 'Ext Customer' },
      content: 'A reply from the customer',
      externalId: 'ext-msg-1',
    });
    expect(incoming.status).toBe(200);
    expect(incoming.body.data.inbound.conversation.channelId).toBe(channel._id);
    expect(incoming.body.data.inbound.message).toMatchObject({ type: 'incoming', content: 'A reply from the customer' });

    const raw = JSON.stringify({ type: 'status', id, status: 'read' });
    expectError(
      await api.post(`${CHANNELS}/${channel._id}/inbound`, raw, { 'x-parley-signature': `sha256=${'0'.repeat(64)}` }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await api.post(`${CHANNELS}/${channel._id}/inbound`, raw), 401, 'UNAUTHORIZED');
    expect((await messageIn(api, conversation._id, id)).deliveryStatus).toBe('delivered');
  });

  it('an api endpoint that answers 401 fails the reply and puts the account in error', async () => {
    const { api } = await ctx.tenant();
    const channel = await createChannel(api, { type: 'api', config: { url: receiver.url } });
    const { conversation } = await conversationOn(api, channel._id);
    const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'refuse me' })).body.data.message._id;
    const m = await eventually(async () => {
      const found = await messageIn(api, conversation._id, id);
      return found.deliveryStatus === 'failed' && found;
    });
    expect(m.failureReason).toBe('http_401');
    const status = (await api.get(`${CHANNELS}/${channel._id}/status`)).body.data.status;
    expect(status).toMatchObject({ status: 'error', lastError: { reason: 'http_401' } });
  });
});

it('no secret ever appears in the logs', () => {
  const all = logged.join('');
  expect(all).toContain('"message":"channel send"');
  expect(all).not.toContain(SMTP_PASSWORD);
  expect(all).not.toMatch(/chs_[A-Za-z0-9_-]{20,}/);
});
