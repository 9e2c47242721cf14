import { expect, it } from 'vitest';
import { handleBroadcastMessage, handleBroadcastMessages } from '../../shared/broadcasts/worker';
import type { BroadcastMessage } from '../../shared/broadcasts/queue';
import { takeSendSlots } from '../../shared/data/channel-rate';
import { BROADCASTS, createChannel, createCustomers, sandboxSends } from '../support/channels';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';

/** No workers: the worker's handler is called here with the batches a queue poller would hand it. */
const ctx = useTestStack({ workers: false });

it('send slots taken at once by concurrent workers never exceed the rate within a second', async () => {
  const { tenant } = await ctx.tenant();
  const second = Math.floor(Date.now() / 1000) * 1000 + 5000;
  const takes = await Promise.all(Array.from({ length: 4 }, () => takeSendSlots(tenant, 'rated', 5, 3, second + 200)));
  expect(takes.reduce((n, t) => n + t.granted, 0)).toBe(5);
  for (const t of takes) expect(t.waitMs).toBe(t.granted === 3 ? 0 : 800);
  expect(await takeSendSlots(tenant, 'rated', 5, 2, second + 1000)).toEqual({ granted: 2, waitMs: 0 });
});

it("a batch of one broadcast's recipients is sent together within the rate, with its receipts, and a redelivered batch sends nothing twice", {
  timeout: 60_000,
}, async () => {
  const { api, tenant, workspaceId } = await ctx.tenant();
  const channel = await createChannel(api, { type: 'sandbox', ratePerSecond: 5, config: { deliver: true, read: true } });
  const ids = await createCustomers(tenant, 8);
  const b = (await api.post(BROADCASTS, { name: 'Batch', channelId: channel._id, audience: { customerIds: ids }, content: 'Hi' })).body.data
    .broadcast;
  expect((await api.post(`${BROADCASTS}/${b._id}/send`)).status).toBe(202);
  expect(await handleBroadcastMessage({ kind: 'start', tenant, broadcastId: b._id })).toEqual({ ack: true });

  // Two messages of four customers each, and the first customer once more in a message of one (as enqueued
  // before messages named several); the rate lets five sends through this second.
  const message = (m: { customerIds: string[] } | { customerId: string }): BroadcastMessage => ({
    kind: 'recipient',
    tenant,
    broadcastId: b._id,
    channelId: channel._id,
    ...m,
  });
  const batch = [message({ customerIds: ids.slice(0, 4) }), message({ customerIds: ids.slice(4) }), message({ customerId: ids[0]! })];
  const [done4, throttled, again] = await handleBroadcastMessages(batch);
  expect([done4, again]).toEqual([{ ack: true }, { ack: true }]);
  // Its fifth customer was sent to; the other three wait for the next second, and the message with them.
  expect(throttled!.ack === false && throttled!.delayMs > 0 && throttled!.delayMs <= 1000).toBe(true);
  const midway = (await api.get(`${BROADCASTS}/${b._id}`)).body.data.broadcast;
  expect(midway).toMatchObject({ status: 'sending', stats: { recipients: 8, sent: 5, delivered: 5, read: 5 } });
  const recipients = (await api.get(`${BROADCASTS}/${b._id}/recipients`)).body.data.recipients as {
    customerId: string;
    status: string;
    sentAt: string | null;
  }[];
  for (const r of recipients.filter((r) => ids.slice(0, 5).includes(r.customerId)))
    expect(r).toMatchObject({ status: 'read', sentAt: expect.any(String) });
  const delivered = await outboxEvents(workspaceId, 'broadcast.recipient.delivered');
  expect(delivered.map((e) => (e.data as { recipient: { status: string } }).recipient.status)).toEqual(Array(5).fill('delivered'));

  await new Promise((r) => setTimeout(r, 1100));
  expect((await handleBroadcastMessages(batch)).every((v) => v.ack)).toBe(true);
  const done = (await api.get(`${BROADCASTS}/${b._id}`)).body.data.broadcast;
  expect(done).toMatchObject({ status: 'sent', stats: { recipients: 8, sent: 8, delivered: 8, read: 8, failed: 0 } });
  const sends = await sandboxSends(tenant, channel._id);
  expect(sends.map((s) => s.customerId).sort()).toEqual([...ids].sort());
  expect(sends.every((s) => s.sends === 1)).toBe(true);
});
