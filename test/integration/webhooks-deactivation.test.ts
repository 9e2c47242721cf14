import { expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports';
import { createToken } from '../../shared/auth/tokens';
import { FAST_ATTEMPTS } from '../../shared/domain/webhooks/schedule';
import { client, pollData } from '../support/api';
import { createTenant } from '../support/tenants';
import { eventually, sleep, verifyDelivery, useWebhookStack } from '../support/webhooks';
import { direct } from '../../shared/data/unit';

const HOOKS = '/api/v1/integrations/webhooks';
const ctx = useWebhookStack();

// 500 attempts (100 deliveries × the 5-attempt fast schedule) take ~20 s on an idle machine and 46–59 s beside
// another heavy file. In full CI-style runs on 2 cores the test took 143–170 s, its writes waiting on DynamoDB
// Local's one write lock; the budget leaves room above that.
it('100 consecutive failed deliveries deactivate; events while inactive never arrive; PATCH {active:true} resumes for new events', {
  timeout: 300_000,
}, async () => {
  const tenant = await createTenant();
  const api = client(ctx.stack.baseUrl, tenant);
  // Nothing listens on this port: every attempt fails fast with connection_refused.
  const refused = `https://127.0.0.1:${await freePort()}/hook`;
  const sub = (await api.post(HOOKS, { url: refused, events: ['auth.token.created'] })).body.data.subscription;
  const emit = () =>
    createToken(direct, { name: 'event source', scopes: ['inbox:read'], workspaceIds: [tenant.workspaceId], livemode: false });

  await Promise.all(Array.from({ length: 100 }, emit));
  const inactive = await eventually(
    async () => {
      const subscription = (await pollData(api, `${HOOKS}/${sub._id}`))?.subscription;
      return subscription?.active === false && subscription;
    },
    270_000,
    1000,
  );
  expect(inactive).toMatchObject({ active: false, deactivationReason: 'consecutive_failures', consecutiveFailures: 100 });

  // Every delivery ran its fast schedule (5 attempts), and the pending retries were stopped. A delivery whose
  // fifth attempt came a minute before the hundredth (a loaded machine spreads them) has made its sixth, the
  // first of the long schedule, by then.
  const failed = await eventually(async () => {
    const res = await api.get(`${HOOKS}/${sub._id}/deliveries?status=failed&limit=100`);
    return res.body.data.pagination.total === 100 && res.body.data.deliveries;
  }, 10_000);
  expect(failed.filter((d: any) => d.failureReason !== 'subscription_inactive' || d.attemptNumber < FAST_ATTEMPTS)).toEqual([]);
  for (const { deliveryId, attemptNumber } of failed.filter((d: any, i: number) => i === 0 || d.attemptNumber > FAST_ATTEMPTS)) {
    const { attempts } = (await api.get(`${HOOKS}/${sub._id}/deliveries/${deliveryId}`)).body.data.delivery;
    expect(attempts.map((a: any) => a.failureReason)).toEqual(Array(attemptNumber).fill('connection_refused'));
  }

  const during = await emit();
  await sleep(3000);
  const reactivated = await api.patch(`${HOOKS}/${sub._id}`, { active: true, url: ctx.receiver.url });
  expect(reactivated.body.data.subscription).toMatchObject({ active: true, consecutiveFailures: 0 });
  const after = await emit();
  const [req] = await ctx.receiver.waitFor(1, 15_000);
  const body = await verifyDelivery(sub.secret, req!);
  expect(body.data.token._id).toBe(after.record._id);
  await sleep(3000);
  expect(ctx.receiver.received).toHaveLength(1);
  expect(ctx.receiver.received.map((r) => JSON.parse(r.body).data.token._id)).not.toContain(during.record._id);
});
