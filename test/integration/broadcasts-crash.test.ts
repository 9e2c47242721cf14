import { expect, it } from 'vitest';
import { CRASH_AFTER_SANDBOX_SEND, FAULT_AFTER_ENV, FAULT_ENV } from '../../infra/local/faults';
import { BROADCAST_QUEUE } from '../../functions/wiring/channels';
import { client, pollData } from '../support/api';
import { BROADCASTS, createChannel, createCustomers, sandboxSends } from '../support/channels';
import { useCrashRig } from '../support/child-stack';
import { createTenant } from '../support/tenants';
import { skipVisibilityTimeout } from '../support/visibility';
import { eventually } from '../support/webhooks';

/**
 * The workers run in a child `npm start` that is SIGKILLed right after its 75th committed send, with a
 * batch of sends claimed mid-flight; DynamoDB Local, the SQS emulator and the gateway live in this test
 * process and survive, as the managed services do on AWS. The claimed batch comes back once the queue's
 * visibility timeout (90 s, from the wiring) has passed, which the test skips rather than waits out
 * (`support/visibility.ts`). The budget is for a full suite run on 2 busy cores, where two `npm start`
 * children boot and the sandbox sends run at a few recipients a second; the state is read every 3 s, well
 * within the token's read limit however long that takes.
 */
const RECIPIENTS = 250;
const rig = useCrashRig('broadcast-crash');

it(`a scheduled broadcast to ${RECIPIENTS} recipients sends each exactly once, even when its worker is killed mid-send`, {
  timeout: 720_000,
}, async () => {
  const tenant = await createTenant();
  const api = client(rig.stack.baseUrl, tenant);
  const channel = await createChannel(api, { type: 'sandbox', ratePerSecond: 100 });
  const ids = await createCustomers(tenant.tenant, RECIPIENTS, 25);
  const b = (await api.post(BROADCASTS, { name: 'Big', channelId: channel._id, audience: { customerIds: ids }, content: 'Hello all' })).body
    .data.broadcast;
  const at = new Date(Date.now() + 2000).toISOString();
  expect((await api.post(`${BROADCASTS}/${b._id}/schedule`, { at })).body.data.broadcast.status).toBe('scheduled');

  const first = await rig.start({ [FAULT_ENV]: CRASH_AFTER_SANDBOX_SEND, [FAULT_AFTER_ENV]: '75' });
  await new Promise<void>((done) => first.child.once('exit', () => done()));
  expect(first.child.signalCode).toBe('SIGKILL');
  const atCrash = (await api.get(`${BROADCASTS}/${b._id}`)).body.data.broadcast;
  expect(atCrash.status).toBe('sending');
  expect(atCrash.stats.sent).toBeGreaterThanOrEqual(75);
  expect(atCrash.stats.sent).toBeLessThan(RECIPIENTS);

  const skipped = await skipVisibilityTimeout(rig.stack, BROADCAST_QUEUE, Date.now());
  await rig.start({}, skipped.aheadMs);
  await skipped.lapse();
  const done = await eventually(
    async () => {
      const now = (await pollData(api, `${BROADCASTS}/${b._id}`))?.broadcast;
      return now?.status === 'sent' && now;
    },
    540_000,
    3000,
  );
  expect(done.stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, failed: 0, skipped: 0, cancelled: 0 });
  const sends = await sandboxSends(tenant.tenant, channel._id);
  expect(sends).toHaveLength(RECIPIENTS);
  expect(new Set(sends.map((s) => s.customerId)).size).toBe(RECIPIENTS);
  expect(sends.filter((s) => s.sends !== 1)).toEqual([]);
});
