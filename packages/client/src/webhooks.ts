import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema.js';

/** Any event Parley delivers, typed by its `eventType`. */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
}[keyof webhooks];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Five minutes either way, as Standard Webhooks recommends against replays. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const headerOf = (headers: HeaderBag, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const hmac = (key: Buffer | string, text: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', key).update(text, 'utf8').digest(encoding);

/** Standard Webhooks' reading of a secret: `whsec_<base64>` stands for the decoded bytes, anything else for itself. */
const standardWebhooksKey = (secret: string): Buffer => {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  const decoded = encoded === undefined ? undefined : Buffer.from(encoded, 'base64');
  return decoded?.length && decoded.toString('base64') === encoded ? decoded : Buffer.from(secret, 'latin1');
};

/**
 * For receivers: checks both signatures a Parley delivery carries over the raw body, then returns the event.
 * `X-Webhook-Signature` is `sha256=<hex HMAC-SHA256>` keyed with the secret string as given; the Standard
 * Webhooks `webhook-signature` (any of its space-separated `v1,` values) signs `<webhook-id>.<webhook-timestamp>.<body>`
 * with the secret's key, and its timestamp must be within the tolerance. Throws `WebhookVerificationError`
 * otherwise. Pass the body exactly as received, before any JSON parsing.
 */
export const verifyWebhook = (
  secret: string,
  rawBody: string,
  headers: HeaderBag,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent => {
  const [id, timestamp, signatures, github] = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-webhook-signature'].map((h) =>
    headerOf(headers, h),
  );
  if (!id || !timestamp || !signatures || !github) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp, webhook-signature or X-Webhook-Signature');
  }
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('Timestamp outside the tolerance');
  }
  const expected = `v1,${hmac(standardWebhooksKey(secret), `${id}.${timestamp}.${rawBody}`, 'base64')}`;
  if (!signatures.split(' ').some((s) => sameText(s, expected))) throw new WebhookVerificationError('No matching webhook-signature');
  if (!sameText(github, `sha256=${hmac(secret, rawBody, 'hex')}`)) throw new WebhookVerificationError('X-Webhook-Signature does not match');
  return JSON.parse(rawBody) as WebhookEvent;
};
