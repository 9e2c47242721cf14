import { expect, it } from 'vitest';
import { expectError } from '../support/api';
import { BROADCASTS, CHANNELS, CUSTOMERS, createChannel, createCustomers, sandboxSends } from '../support/channels';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { eventually } from '../support/webhooks';

const ctx = useTestStack();

const broadcastOf = async (api: Awaited<ReturnType<typeof ctx.tenant>>['api'], id: string) =>
  (await api.get(`${BROADCASTS}/${id}`)).body.data.broadcast;

it('a broadcast to tags and ids sends once per customer, skips the blocked one, lists recipients and counts stats', {
  timeout: 60_000,
}, async () => {
  const { api, tenant, workspaceId } = await ctx.tenant();
  const channel = await createChannel(api, { type: 'sandbox', config: { deliver: true, read: false } });
  const ids = await createCustomers(tenant, 6);
  const tag = (await api.post('/api/v1/tags', { name: 'vip' })).body.data.tag;
  for (const id of ids.slice(2, 5)) expect((await api.post(`${CUSTOMERS}/${id}/tags`, { tagIds: [tag._id] })).status).toBeLessThan(300);
  expect((await api.post(`${CUSTOMERS}/${ids[0]}/block`)).status).toBe(200);
  const created = await api.post(BROADCASTS, {
    name: 'Launch',
    channelId: channel._id,
    audience: { customerIds: ids.slice(0, 3), tagIds: [tag._id] },
    content: 'We launched',
  });
  expect(created.status).toBe(201);
  const b = created.body.data.broadcast;
  expect(b).toMatchObject({ status: 'draft', stats: { recipients: 0, sent: 0 } });
  expect((await api.post(`${BROADCASTS}/${b._id}/send`)).status).toBe(202);
  const done = await eventually(async () => {
    const now = await broadcastOf(api, b._id);
    return now.status === 'sent' && now;
  });
  expect(done.stats).toEqual({ recipients: 5, sent: 4, delivered: 4, read: 0, failed: 0, skipped: 1, cancelled: 0 });
  const recipients = (await api.get(`${BROADCASTS}/${b._id}/recipients`)).body.data;
  expect(recipients.pagination.total).toBe(5);
  const byCustomer = Object.fromEntries((recipients.recipients as any[]).map((r) => [r.customerId, r]));
  expect(byCustomer[ids[0]!]).toMatchObject({ status: 'skipped', reason: 'customer_blocked' });
  for (const id of ids.slice(1, 5)) expect(byCustomer[id]!.status).toBe('delivered');
  const sends = await sandboxSends(tenant, channel._id);
  expect(sends.map((s) => s.customerId).sort()).toEqual(ids.slice(1, 5).sort());
  expect(sends.every((s) => s.sends === 1)).toBe(true);
  const types = (await outboxEvents(workspaceId)).map((e) => e.eventType).filter((t) => t.startsWith('broadcast.'));
  expect(types.filter((t) => t.startsWith('broadcast.campaign.'))).toEqual(['broadcast.campaign.sending', 'broadcast.campaign.sent']);
  expect(types.filter((t) => t === 'broadcast.recipient.delivered')).toHaveLength(4);
  expectError(await api.post(`${BROADCASTS}/${b._id}/send`), 409, 'CONFLICT');
});

it('cancelling mid-send stops the remaining recipients', { timeout: 90_000 }, async () => {
  const { api, tenant } = await ctx.tenant();
  // Two sends a second: the send is still going when it is cancelled.
  const channel = await createChannel(api, { type: 'sandbox', ratePerSecond: 2 });
  const ids = await createCustomers(tenant, 40);
  const b = (await api.post(BROADCASTS, { name: 'Slow', channelId: channel._id, audience: { customerIds: ids }, content: 'Hi' })).body.data
    .broadcast;
  await api.post(`${BROADCASTS}/${b._id}/send`);
  await eventually(async () => (await broadcastOf(api, b._id)).stats.sent >= 2, 30_000);
  const cancelled = await api.post(`${BROADCASTS}/${b._id}/cancel`);
  expect(cancelled.body.data.broadcast.status).toBe('cancelled');
  const settled = await eventually(async () => {
    const now = await broadcastOf(api, b._id);
    return now.stats.sent + now.stats.cancelled + now.stats.failed === 40 && now;
  }, 60_000);
  const sentAtCancel = cancelled.body.data.broadcast.stats.sent;
  // Sends claimed before the cancel committed may finish (at most one throttle second's worth); no others start.
  expect(settled.stats.sent).toBeLessThanOrEqual(sentAtCancel + 2);
  expect(settled.stats.cancelled).toBeGreaterThanOrEqual(40 - sentAtCancel - 2);
  expect(settled.status).toBe('cancelled');
  expect((await sandboxSends(tenant, channel._id)).length).toBe(settled.stats.sent);
  expectError(await api.post(`${BROADCASTS}/${b._id}/cancel`), 409, 'CONFLICT');
});

it('a broadcast is a draft until scheduled; schedule needs a future time; ids from another workspace are 404', async () => {
  const { api } = await ctx.tenant();
  const other = await ctx.tenant();
  const channel = await createChannel(api, { type: 'sandbox' });
  expectError(
    await api.post(BROADCASTS, { name: 'x', channelId: '0'.repeat(24), audience: { customerIds: ['0'.repeat(24)] }, content: 'x' }),
    422,
    'VALIDATION_ERROR',
  );
  expectError(await api.post(BROADCASTS, { name: 'x', channelId: channel._id, audience: {}, content: 'x' }), 422, 'VALIDATION_ERROR');
  const b = (
    await api.post(BROADCASTS, { name: 'Later', channelId: channel._id, audience: { customerIds: ['0'.repeat(24)] }, content: 'Soon' })
  ).body.data.broadcast;
  expectError(
    await api.post(`${BROADCASTS}/${b._id}/schedule`, { at: new Date(Date.now() - 1000).toISOString() }),
    422,
    'VALIDATION_ERROR',
  );
  const at = new Date(Date.now() + 3600_000).toISOString();
  const scheduled = await api.post(`${BROADCASTS}/${b._id}/schedule`, { at });
  expect(scheduled.body.data.broadcast).toMatchObject({ status: 'scheduled', scheduledAt: at });
  expectError(await api.patch(`${BROADCASTS}/${b._id}`, { content: 'Changed' }), 409, 'CONFLICT');
  for (const res of [
    await other.api.get(`${BROADCASTS}/${b._id}`),
    await other.api.get(`${BROADCASTS}/${b._id}/recipients`),
    await other.api.post(`${BROADCASTS}/${b._id}/cancel`),
    await other.api.post(`${BROADCASTS}/${b._id}/send`),
    await other.api.delete(`${BROADCASTS}/${b._id}`),
  ]) {
    expectError(res, 404, 'NOT_FOUND');
  }
  expect((await api.post(`${BROADCASTS}/${b._id}/cancel`)).body.data.broadcast.status).toBe('cancelled');
  expect((await api.get(CHANNELS)).body.data.pagination.total).toBe(1);
});

it('a draft broadcast is listed newest first, edited while a draft, and deleted', async () => {
  const { api } = await ctx.tenant();
  const channel = await createChannel(api, { type: 'sandbox' });
  const draft = (name: string) =>
    api.post(BROADCASTS, { name, channelId: channel._id, audience: { customerIds: ['0'.repeat(24)] }, content: 'Hello' });
  const first = (await draft('First')).body.data.broadcast;
  const second = (await draft('Second')).body.data.broadcast;
  const listed = (await api.get(`${BROADCASTS}?limit=1`)).body.data;
  expect(listed.broadcasts.map((b: { _id: string }) => b._id)).toEqual([second._id]);
  expect(listed.pagination).toMatchObject({ total: 2, page: 1, limit: 1, pages: 2, hasMore: true });
  const edited = await api.patch(`${BROADCASTS}/${first._id}`, { content: 'Hello again', subject: 'News' });
  expect(edited.status).toBe(200);
  expect(edited.body.data.broadcast).toMatchObject({ _id: first._id, status: 'draft', content: 'Hello again', subject: 'News' });
  const deleted = await api.delete(`${BROADCASTS}/${first._id}`);
  expect(deleted.status).toBe(200);
  expect(deleted.body.data).toMatchObject({ broadcast: { _id: first._id, status: 'draft', content: 'Hello again' }, deleted: true });
  expectError(await api.get(`${BROADCASTS}/${first._id}`), 404, 'NOT_FOUND');
  expect((await api.get(BROADCASTS)).body.data.pagination.total).toBe(1);
});
