import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedMessage {
  eventId: string;
  eventType: string;
  deliveryId: string;
  attemptNumber: number;
  /** Unix seconds. */
  timestamp: number;
}

/** `sha256=<lowercase hex HMAC-SHA256(secret, raw body bytes)>`: byte-compatible with GitHub's X-Hub-Signature-256. */
export const signature = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

const STANDARD_SECRET = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

/**
 * The key of the Standard Webhooks signature, read as the `standardwebhooks` libraries read it at their
 * defaults: a `whsec_<base64>` secret keys with the bytes the base64 stands for; any other secret (`whs_…`,
 * or one a subscriber chose) keys with its own characters' bytes, as those libraries do with `format: 'raw'`.
 */
export const standardKey = (secret: string): Buffer => {
  const encoded = STANDARD_SECRET.exec(secret)?.[1];
  return encoded ? Buffer.from(encoded, 'base64') : Buffer.from(secret, 'latin1');
};

/** Standard Webhooks `v1,<base64 HMAC-SHA256(standardKey(secret), "<id>.<timestamp>.<body>")>`. */
const standardSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;

/** The headers of an attempt that do not depend on the secret: what the delivery log shows of a request. */
export const unsignedHeaders = (m: SignedMessage): Record<string, string> => ({
  'Content-Type': 'application/json',
  'User-Agent': 'Parley-Webhooks/1.0',
  'X-Webhook-Id': m.eventId,
  'X-Webhook-Event': m.eventType,
  'X-Webhook-Delivery': m.deliveryId,
  'X-Webhook-Attempt': String(m.attemptNumber),
  'X-Webhook-Timestamp': String(m.timestamp),
  'webhook-id': m.eventId,
  'webhook-timestamp': String(m.timestamp),
});

/**
 * Every header a delivery attempt carries; the body is sent exactly as signed. `previous` are replaced
 * secrets still in their rotation overlap, oldest first: `webhook-signature` carries one `v1,` signature per
 * valid secret, space-separated, and `X-Webhook-Signature` (one value by contract) the oldest secret's, so a
 * receiver keeps verifying with the secret it has until the overlap ends.
 */
export const deliveryHeaders = (
  secret: string,
  body: string,
  m: SignedMessage,
  previous: readonly string[] = [],
): Record<string, string> => ({
  ...unsignedHeaders(m),
  'X-Webhook-Signature': signature(previous[0] ?? secret, body),
  'webhook-signature': [secret, ...[...previous].reverse()].map((s) => standardSignature(s, m.eventId, m.timestamp, body)).join(' '),
});

/** Whether `header` is the `sha256=` signature of `body` under `secret`, compared in constant time. */
export const verifySignature = (secret: string, body: string, header: string | undefined): boolean => {
  const expected = Buffer.from(signature(secret, body), 'utf8');
  const given = Buffer.from(header ?? '', 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
};
