import { timingSafeEqual } from 'node:crypto';
import { standardSignature } from '../domain/webhooks/sign';
import type { webhooks } from './schema';

export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
}[keyof webhooks];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Five minutes either way, as Standard Webhooks recommends against replays. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const headerOf = (headers: Headers | Record<string, string | string[] | undefined>, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * For receivers: checks a delivery's Standard Webhooks signature (`webhook-signature`, any of its
 * space-separated `v1,` values) over the raw body and its timestamp's freshness, then returns the event.
 * Throws `WebhookVerificationError` otherwise. Pass the body exactly as received, before any JSON parsing.
 */
export const verifyWebhook = (
  secret: string,
  rawBody: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent => {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(timestamp);
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('Timestamp outside the tolerance');
  }
  const expected = standardSignature(secret, id, seconds, rawBody);
  if (!signatures.split(' ').some((s) => sameText(s, expected))) throw new WebhookVerificationError('No matching signature');
  return JSON.parse(rawBody) as WebhookEvent;
};
