import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { sqs } from '../../shared/aws/sqs';
import { STALL_GRACE_MS } from '../../shared/domain/webhooks/delivery';
import { requeueStalled } from '../../shared/webhooks/sweep';
import { client } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { direct } from '../../shared/data/unit';

/** No workers here: messages stay where the test puts them, and the sweeper is called directly. */
let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => stack?.stop());

const receive = async () => {
  const { Messages = [] } = await (await sqs()).client.send(
    new ReceiveMessageCommand({ QueueUrl: stack.queues['webhook-deliveries']!.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  return Messages.map((m) => JSON.parse(m.Body!) as { deliveryId: string });
};

it('the sweeper re-enqueues a due delivery whose message was lost, and only once it is overdue', async () => {
  const tenant = await createTenant();
  const api = client(stack.baseUrl, tenant);
  const sub = (await api.post('/api/v1/integrations/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] })).body.data.subscription;
  const { deliveryId } = (await api.post(`/api/v1/integrations/webhooks/${sub._id}/test`)).body.data.delivery;

  // Take the original message and never return it: as if the queue had lost it.
  expect((await receive()).map((m) => m.deliveryId)).toEqual([deliveryId]);
  expect(await requeueStalled(direct, Date.now())).toBe(0);
  expect(await requeueStalled(direct, Date.now() + STALL_GRACE_MS + 1000)).toBe(1);
  expect((await receive()).map((m) => m.deliveryId)).toEqual([deliveryId]);
});
