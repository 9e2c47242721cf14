import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { startReceiver, type Receiver, type Reply } from '../support/https-receiver';
import { startTestStack } from '../support/stack';
import { createTenant, tokenFor } from '../support/tenants';
import { eventually, sleep, verifyDelivery } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
let stack: LocalStack;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await stack?.stop();
});

/** A fresh workspace subscribed to auth events at a receiver that answers with `reply`. */
const setup = async (reply: (index: number) => Reply) => {
  const receiver = await startReceiver((_req, i) => reply(i));
  receivers.push(receiver);
  const tenant = await createTenant();
  const api = client(stack.baseUrl, tenant);
  const created = await api.post(HOOKS, { url: receiver.url, events: ['auth.token.*'] });
  expect(created.status).toBe(201);
  const sub = created.body.data.subscription as { _id: string; secret: string };
  /** Emits one real domain event (auth.token.created) through the outbox. */
  const emit = async () => (await tokenFor([tenant.workspaceId], ['inbox:read'])).record._id;
  const deliveries = async () => (await api.get(`${HOOKS}/${sub._id}/deliveries`)).body.data.deliveries as any[];
  const delivery = async (id: string) => (await api.get(`${HOOKS}/${sub._id}/deliveries/${id}`)).body.data.delivery;
  /** The delivery log entry once `ready` holds for it. */
  const deliveryWhen = (id: string, ready: (d: any) => boolean, timeoutMs: number) =>
    eventually(async () => {
      const d = await delivery(id);
      return ready(d) && d;
    }, timeoutMs);
  return { receiver, tenant, api, sub, emit, deliveries, delivery, deliveryWhen };
};

const deliveryIdOf = (req: { headers: Record<string, unknown> }) => req.headers['x-webhook-delivery'] as string;

describe('delivery attempts (contract § Delivery rules, docs/guide/webhooks.md)', () => {
  it('retries a receiver that keeps returning 503 after 1, 2, 4 and 8 s, sending identical signed bytes each time', async () => {
    const { receiver, sub, emit, deliveryWhen } = await setup(() => ({ status: 503 }));
    await emit();
    const attempts = await receiver.waitFor(5, 40_000);
    const gaps = attempts.slice(1, 5).map((a, i) => a.at - attempts[i]!.at);
    // Tolerance: the delays are exact (visibility timeout) but five agents share two cores, so allow
    // 150 ms early / 700 ms late for scheduling, the table write and the queue round trip.
    [1000, 2000, 4000, 8000].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 150);
      expect(gaps[i]).toBeLessThanOrEqual(expected + 700);
    });
    expect(new Set(attempts.slice(0, 5).map((a) => a.body)).size).toBe(1);
    expect(attempts.slice(0, 5).map((a) => a.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    for (const a of attempts.slice(0, 5)) expect((await verifyDelivery(sub.secret, a)).eventType).toBe('auth.token.created');

    const logged = await deliveryWhen(deliveryIdOf(attempts[0]!), (x) => x.attemptNumber === 5, 5000);
    expect(logged).toMatchObject({ status: 'retrying', httpStatus: 503, failureReason: 'http_503', attemptNumber: 5 });
    const untilNext = Date.parse(logged.nextRetryAt) - Date.parse(logged.attempts[4].at);
    expect(untilNext).toBeGreaterThanOrEqual(54_000);
    expect(untilNext).toBeLessThanOrEqual(66_500);
    expect(logged.attempts).toHaveLength(5);
    logged.attempts.forEach((a: any, i: number) => {
      expect(a).toMatchObject({ attemptNumber: i + 1, status: 'failed', httpStatus: 503, failureReason: 'http_503' });
      expect(a.latency).toEqual(expect.any(Number));
      expect(Date.parse(a.at)).not.toBeNaN();
    });
  });

  it('a 410 response fails the delivery without retry and deactivates the subscription', async () => {
    const { receiver, api, sub, emit, deliveryWhen } = await setup(() => ({ status: 410 }));
    await emit();
    const [first] = await receiver.waitFor(1, 15_000);
    const failed = await deliveryWhen(deliveryIdOf(first!), (x) => x.status === 'failed', 5000);
    expect(failed).toMatchObject({ status: 'failed', httpStatus: 410, failureReason: 'gone_410', attemptNumber: 1, nextRetryAt: null });
    const after = await api.get(`${HOOKS}/${sub._id}`);
    expect(after.body.data.subscription).toMatchObject({ active: false, deactivationReason: 'gone_410' });
    await sleep(2500);
    expect(receiver.received).toHaveLength(1);
  });

  it('a 301 is a failure and its Location is never followed', async () => {
    const target = await startReceiver();
    receivers.push(target);
    const { receiver, emit, deliveryWhen } = await setup(() => ({ status: 301, headers: { Location: target.url } }));
    await emit();
    const [first] = await receiver.waitFor(1, 15_000);
    const d = await deliveryWhen(deliveryIdOf(first!), (x) => x.attemptNumber >= 1, 5000);
    expect(d).toMatchObject({ status: 'retrying', httpStatus: 301, failureReason: 'redirect_301' });
    await receiver.waitFor(2, 5000);
    expect(target.received).toHaveLength(0);
  });

  it('a receiver that does not answer within 10 s is a timeout', async () => {
    const { receiver, emit, deliveryWhen } = await setup((i) => (i === 0 ? 'hang' : { status: 200 }));
    await emit();
    const [first] = await receiver.waitFor(1, 15_000);
    const d = await deliveryWhen(deliveryIdOf(first!), (x) => x.attemptNumber >= 1, 15_000);
    expect(d.attempts[0]).toMatchObject({ status: 'failed', failureReason: 'timeout' });
    expect(d.attempts[0].latency).toBeGreaterThanOrEqual(9_900);
    expect(d.attempts[0].latency).toBeLessThan(12_000);
    expect(d.attempts[0]).not.toHaveProperty('httpStatus');
    const done = await deliveryWhen(deliveryIdOf(first!), (x) => x.status === 'success', 10_000);
    expect(done).toMatchObject({ attemptNumber: 2, httpStatus: 200, failureReason: null, nextRetryAt: null });
  });

  it('manual retry makes a new attempt for a failed delivery and is refused for one that is not failed', async () => {
    const { receiver, api, sub, emit, deliveryWhen, deliveries } = await setup((i) => (i === 0 ? { status: 410 } : { status: 204 }));
    await emit();
    const [first] = await receiver.waitFor(1, 15_000);
    const id = deliveryIdOf(first!);
    await deliveryWhen(id, (x) => x.status === 'failed', 5000);

    const onInactive = await api.post(`${HOOKS}/${sub._id}/retry/${id}`);
    expect(onInactive.status).toBe(409);
    expect(onInactive.body.error.code).toBe('CONFLICT');

    expect((await api.patch(`${HOOKS}/${sub._id}`, { active: true })).body.data.subscription.active).toBe(true);
    const retried = await api.post(`${HOOKS}/${sub._id}/retry/${id}`);
    expect(retried.status).toBe(202);
    // Pending again: the 410 stays in the attempts, not on the delivery awaiting its new attempt.
    expect(retried.body.data.delivery).toMatchObject({
      deliveryId: id,
      status: 'pending',
      httpStatus: null,
      latency: null,
      failureReason: null,
      attemptNumber: 1,
    });
    expect(Date.parse(retried.body.data.delivery.nextAttemptAt)).not.toBeNaN();
    expect(retried.body.data.delivery.attempts).toMatchObject([{ attemptNumber: 1, status: 'failed', httpStatus: 410 }]);
    const [, second] = await receiver.waitFor(2, 10_000);
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-webhook-attempt']).toBe('2');
    await verifyDelivery(sub.secret, second!);
    const done = await deliveryWhen(id, (x) => x.status === 'success', 5000);
    expect(done.attempts.map((a: any) => [a.attemptNumber, a.status, a.httpStatus])).toEqual([
      [1, 'failed', 410],
      [2, 'success', 204],
    ]);

    const again = await api.post(`${HOOKS}/${sub._id}/retry/${id}`);
    expect(again.status).toBe(409);
    expect((await deliveries()).map((d) => d.deliveryId)).toContain(id);
  });

  it('refuses a retry for a delivery of another subscription or workspace with 404', async () => {
    const a = await setup(() => ({ status: 200 }));
    const b = await setup(() => ({ status: 200 }));
    await a.emit();
    const [req] = await a.receiver.waitFor(1, 15_000);
    const id = deliveryIdOf(req!);
    expect((await b.api.post(`${HOOKS}/${b.sub._id}/retry/${id}`)).status).toBe(404);
    expect((await b.api.post(`${HOOKS}/${a.sub._id}/retry/${id}`)).status).toBe(404);
    expect((await b.api.get(`${HOOKS}/${a.sub._id}/deliveries/${id}`)).status).toBe(404);
  });
});
