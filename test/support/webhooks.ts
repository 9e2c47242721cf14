import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import type { Received } from './https-receiver';

/** Verifies a received delivery the way a subscriber would, with both libraries; returns the parsed body. */
export const verifyDelivery = async (secret: string, req: Received): Promise<Record<string, any>> => {
  const header = req.headers['x-webhook-signature'] as string;
  if (!(await verify(secret, req.body, header))) throw new Error('X-Webhook-Signature does not verify');
  return new Webhook(secret, { format: 'raw' }).verify(req.body, req.headers as Record<string, string>) as Record<string, any>;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a truthy value, or fails after `timeoutMs`. */
export const eventually = async <T>(probe: () => Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 200): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
};
