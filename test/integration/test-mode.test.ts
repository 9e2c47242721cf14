import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { useTestStack } from '../support/stack';
import { sleep, verifyDelivery } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
const CUSTOMERS = '/api/v1/contacts/customers';
const CONV = '/api/v1/inbox/conversations';

// Loopback receivers allowed, so deliveries reach the receivers below.
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const receivers: Receiver[] = [];
beforeAll(async () => {
  receivers.push(await startReceiver(), await startReceiver());
});
afterAll(() => Promise.all(receivers.map((r) => r.stop())));

/** One workspace through both of its modes: a new tenant's token is `sk_test_`; `live` is an `sk_live_` one. */
const bothModes = async () => {
  const test = await env.tenant();
  return { test, live: await env.liveMode(test) };
};

describe('test mode', () => {
  it('reports the mode of the token on GET /auth/token and of each workspace on GET /auth/workspaces', async () => {
    const { test, live } = await bothModes();
    for (const [t, livemode] of [
      [test, false],
      [live, true],
    ] as const) {
      expect((await t.api.get('/api/v1/auth/token')).body.data.token).toMatchObject({ environment: livemode ? 'live' : 'test', livemode });
      expect((await t.api.get('/api/v1/auth/workspaces')).body.data.workspaces).toEqual([
        expect.objectContaining({ _id: test.workspaceId, livemode }),
      ]);
    }
  });

  it('keeps separate data, totals and sequences per mode of the same workspace', async () => {
    const { test, live } = await bothModes();
    const testCustomers = [];
    for (const name of ['Ada', 'Grace']) testCustomers.push((await test.api.post(CUSTOMERS, { name })).body.data.customer);
    const liveCustomer = (await live.api.post(CUSTOMERS, { name: 'Linus' })).body.data.customer;
    // The same tag name in each mode: each mode has its own uniqueness.
    expect((await test.api.post('/api/v1/tags', { name: 'vip' })).status).toBe(201);
    expect((await live.api.post('/api/v1/tags', { name: 'vip' })).status).toBe(201);
    const testConv = (await test.api.post(CONV, { customerId: testCustomers[0]._id })).body.data.conversation;
    const liveConv = (await live.api.post(CONV, { customerId: liveCustomer._id })).body.data.conversation;

    const totals = async (api: typeof test.api) =>
      Promise.all([CUSTOMERS, '/api/v1/tags', CONV].map(async (path) => (await api.get(path)).body.data.pagination.total));
    expect(await totals(test.api)).toEqual([2, 1, 1]);
    expect(await totals(live.api)).toEqual([1, 1, 1]);
    expect([testConv.number, liveConv.number]).toEqual([1, 1]);
    // A live customer is as unknown to test mode as another workspace's: 422 on customerId.
    expectError(await test.api.post(CONV, { customerId: liveCustomer._id }), 422, 'VALIDATION_ERROR');
  });

  it('delivers test-mode events (livemode false) only to test-mode subscriptions, and live events only to live ones', async () => {
    const { test, live } = await bothModes();
    const [testRx, liveRx] = receivers as [Receiver, Receiver];
    const subscribe = async (api: typeof test.api, url: string) => {
      const res = await api.post(HOOKS, { url, events: ['customer.contact.*'] });
      expect(res.status).toBe(201);
      return res.body.data.subscription as { _id: string; secret: string; workspaceId: string; livemode: boolean };
    };
    const testSub = await subscribe(test.api, testRx.url);
    const liveSub = await subscribe(live.api, liveRx.url);
    expect([testSub, liveSub]).toEqual([
      expect.objectContaining({ workspaceId: test.workspaceId, livemode: false }),
      expect.objectContaining({ workspaceId: test.workspaceId, livemode: true }),
    ]);
    expect((await test.api.get(HOOKS)).body.data.subscriptions.map((s: { _id: string }) => s._id)).toEqual([testSub._id]);

    const testCustomer = (await test.api.post(CUSTOMERS, { name: 'Sandbox' })).body.data.customer;
    const liveCustomer = (await live.api.post(CUSTOMERS, { name: 'Real' })).body.data.customer;
    const [testEvent] = await testRx.waitFor(1);
    const [liveEvent] = await liveRx.waitFor(1);
    expect(await verifyDelivery(testSub.secret, testEvent!)).toMatchObject({
      eventType: 'customer.contact.created',
      workspaceId: test.workspaceId,
      livemode: false,
      data: { contact: { _id: testCustomer._id } },
    });
    expect(await verifyDelivery(liveSub.secret, liveEvent!)).toMatchObject({
      eventType: 'customer.contact.created',
      workspaceId: test.workspaceId,
      livemode: true,
      data: { contact: { _id: liveCustomer._id } },
    });
    // Time for a stray cross-mode delivery to arrive, were there one.
    await sleep(2000);
    expect([testRx.received.length, liveRx.received.length]).toEqual([1, 1]);
  });
});
