import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../../packages/client/src/webhooks';
import { deliveryHeaders } from '../../../shared/domain/webhooks/sign';
import { generateSecret } from '../../../shared/domain/webhooks/subscription';

const body = JSON.stringify({ eventId: 'e1', eventType: 'webhook.ping', data: {} });
const now = new Date('2026-01-01T00:00:00Z');
const signed = (secret: string, text = body) =>
  deliveryHeaders(secret, text, {
    eventId: 'e1',
    eventType: 'webhook.ping',
    deliveryId: 'd1',
    attemptNumber: 1,
    timestamp: now.getTime() / 1000,
  });

describe("the client's webhook verification, against what Parley signs", () => {
  it('accepts every secret form Parley signs with: generated whsec_, old whs_, chosen, and whsec_ that is not base64', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant(generateSecret()),
          fc.stringMatching(/^[\x21-\x7e]{16,64}$/),
          fc.stringMatching(/^whs(ec)?_[\x21-\x7e]{10,40}$/),
        ),
        (secret) => {
          expect(verifyWebhook(secret, body, signed(secret), { now })).toMatchObject({ eventId: 'e1' });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads headers from a Headers object or a plain record, within five minutes either way', () => {
    const secret = generateSecret();
    expect(verifyWebhook(secret, body, new Headers(signed(secret)), { now }).eventType).toBe('webhook.ping');
    expect(verifyWebhook(secret, body, signed(secret), { now: new Date(now.getTime() + 299_000) }).eventType).toBe('webhook.ping');
  });

  it('refuses a changed body, another secret, a stale timestamp, a forged X-Webhook-Signature and missing headers', () => {
    const secret = generateSecret();
    const headers = signed(secret);
    expect(() => verifyWebhook(secret, body.replace('e1', 'e2'), headers, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(generateSecret(), body, headers, { now })).toThrow(/No matching webhook-signature/);
    expect(() => verifyWebhook(secret, body, headers, { now: new Date(now.getTime() + 301_000) })).toThrow(/Timestamp/);
    const other = signed(generateSecret());
    expect(() => verifyWebhook(secret, body, { ...headers, 'X-Webhook-Signature': other['X-Webhook-Signature'] }, { now })).toThrow(
      /X-Webhook-Signature/,
    );
    const { 'X-Webhook-Signature': _dropped, ...withoutGithub } = headers;
    expect(() => verifyWebhook(secret, body, withoutGithub, { now })).toThrow(/Missing/);
    expect(() => verifyWebhook(secret, body, {}, { now })).toThrow(/Missing/);
  });
});
