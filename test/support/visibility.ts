import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { expect } from 'vitest';
import { LONG_POLL_SECONDS } from '../../infra/local/queue-poller';
import type { LocalStack } from '../../infra/local/stack';
import { wiring } from '../../functions/wiring';

interface Inflight {
  receiptHandle: string;
  visibilityDeadline: number;
  message: { approximateFirstReceiveTimestamp?: number; approximateReceiveCount: number };
}

/** The messages `queue` holds in flight, read from the SQS emulator's inspection endpoint. */
export const inflight = async (sqsEndpoint: string, queue: string): Promise<Inflight[]> => {
  const res = await fetch(`${sqsEndpoint}/_fauxqs/queues/${encodeURIComponent(queue)}`);
  if (!res.ok) throw new Error(`no queue ${queue} in the SQS emulator: ${res.status}`);
  return ((await res.json()) as { messages: { inflight: Inflight[] } }).messages.inflight;
};

/**
 * Stands in for waiting out a dead worker's visibility timeout on `queue`. Checks that the emulator hid a
 * message received once for exactly the wiring's timeout (others may have been hidden longer or shorter
 * by the worker itself) and returns `aheadMs`, how far the latest deadline lies ahead: the restarted
 * workers run with their clock that much ahead (`clock-ahead.ts`), so for them the whole timeout has
 * passed, leases included. `lapse()`, called once they run, makes those messages visible, which the
 * emulator would do at their deadlines.
 *
 * A receive the worker had open when it was killed (`killedAt`) still takes what arrives, as SQS does for a
 * caller gone mid long poll, so the messages are read once every such receive has returned.
 */
export const skipVisibilityTimeout = async (stack: LocalStack, queue: string, killedAt: number) => {
  const spec = wiring.queues.find((q) => q.name === queue);
  if (!spec) throw new Error(`no queue ${queue} in the wiring`);
  await new Promise((r) => setTimeout(r, Math.max(0, killedAt + LONG_POLL_SECONDS * 1000 + 500 - Date.now())));
  const held = await inflight(stack.sqsEndpoint, `${stack.queuePrefix}${queue}`);
  const hidden = held
    .filter((m) => m.message.approximateReceiveCount === 1)
    .map((m) => m.visibilityDeadline - m.message.approximateFirstReceiveTimestamp!);
  const timeout = spec.visibilityTimeoutSeconds * 1000;
  expect(hidden.filter((ms) => ms >= timeout && ms < timeout + 50)).not.toEqual([]);
  const lapse = async () => {
    const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1' });
    try {
      for (const m of held) {
        // One the dead worker hid only briefly (a throttled batch) may be back on the queue already, or sent and deleted.
        await sqs
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: stack.queues[queue]!.url,
              ReceiptHandle: m.receiptHandle,
              VisibilityTimeout: 0,
            }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.name === 'MessageNotInflight')) throw error;
          });
      }
    } finally {
      sqs.destroy();
    }
  };
  return { aheadMs: Math.max(0, Math.max(...held.map((m) => m.visibilityDeadline)) - Date.now()), lapse };
};
