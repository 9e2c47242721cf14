import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { startReceiver, type Received, type Receiver } from './https-receiver';
import { startTestStack } from './stack';

/** The `standardwebhooks` verifier a subscriber builds: at its defaults for a `whsec_` secret, raw for any other. */
export const standardVerifier = (secret: string) =>
  secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });

/** Verifies a received delivery the way a subscriber would, with both libraries; returns the parsed body. */
export const verifyDelivery = async (secret: string, req: Received): Promise<Record<string, any>> => {
  const header = req.headers['x-webhook-signature'] as string;
  if (!(await verify(secret, req.body, header))) throw new Error('X-Webhook-Signature does not verify');
  return standardVerifier(secret).verify(req.body, req.headers as Record<string, string>) as Record<string, any>;
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

/** A test file's local stack (loopback receivers allowed) and one HTTPS receiver, stopped after the file. */
export const useWebhookStack = () => {
  const ctx = {} as { stack: LocalStack; receiver: Receiver };
  beforeAll(async () => {
    ctx.stack = await startTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    ctx.receiver = await startReceiver();
  });
  afterAll(async () => {
    await ctx.receiver?.stop();
    await ctx.stack?.stop();
  });
  return ctx;
};
