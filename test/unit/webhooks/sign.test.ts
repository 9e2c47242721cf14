import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, signature, standardKey } from '../../../shared/domain/webhooks/sign';
import { generateSecret } from '../../../shared/domain/webhooks/subscription';

/** Printable secrets a subscriber may choose; the `whsec_<base64>` form is read differently (below). */
const secretArb = fc.stringMatching(/^[\x21-\x7e]{16,64}$/).filter((s) => !s.startsWith('whsec_'));
const message = {
  eventId: '65a1b2c3d4e5f60718293a4b',
  eventType: 'inbox.message.received',
  deliveryId: '65a1b2c3aabbccddeeff0011',
  attemptNumber: 3,
};

describe('delivery signing', () => {
  it('signs the exact body bytes as GitHub does, so @octokit/webhooks-methods verifies it', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, fc.string({ unit: 'binary' }), async (secret, text) => {
        const body = JSON.stringify({ text });
        const header = signature(secret, body);
        expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
        expect(header).toBe(await octokitSign(secret, body));
        expect(await octokitVerify(secret, body, header)).toBe(true);
        expect(await octokitVerify(secret, `${body} `, header)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('sends the Standard Webhooks trio that the standardwebhooks library verifies with the same secret (raw)', () => {
    fc.assert(
      fc.property(secretArb, fc.string({ unit: 'binary' }), (secret, text) => {
        const body = JSON.stringify({ text });
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = deliveryHeaders(secret, body, { ...message, timestamp });
        expect(new Webhook(secret, { format: 'raw' }).verify(body, headers)).toEqual({ text });
        expect(() => new Webhook(`${secret}x`, { format: 'raw' }).verify(body, headers)).toThrow();
      }),
      { numRuns: 50 },
    );
  });

  it('generates whsec_ secrets that standardwebhooks verifies at its defaults, and @octokit/webhooks-methods with the string as given', async () => {
    const secrets = new Set(Array.from({ length: 20 }, generateSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(standardKey(secret)).toHaveLength(32);
      const body = JSON.stringify({ eventId: 'e', text: secret });
      const headers = deliveryHeaders(secret, body, { ...message, timestamp: Math.floor(Date.now() / 1000) });
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ eventId: 'e' });
      expect(() => new Webhook(secret, { format: 'raw' }).verify(body, headers)).toThrow();
      expect(await octokitVerify(secret, body, headers['X-Webhook-Signature']!)).toBe(true);
    }
  });

  it('keys the Standard Webhooks signature with the decoded bytes of a whsec_ secret only when the rest is base64', () => {
    const key = Buffer.from('0123456789abcdef01234567');
    expect(standardKey(`whsec_${key.toString('base64')}`)).toEqual(key);
    for (const raw of ['whs_old-generated_secret-AbCdEf0123456789', 'whsec_not base64 at all!!', 'whsec_abc', 'my-own-secret-0123456789']) {
      expect(standardKey(raw)).toEqual(Buffer.from(raw));
    }
  });

  it('names the event, delivery, attempt and timestamp in headers', () => {
    const headers = deliveryHeaders('s'.repeat(16), '{}', { ...message, timestamp: 1_700_000_000 });
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Webhook-Id': message.eventId,
      'X-Webhook-Event': message.eventType,
      'X-Webhook-Delivery': message.deliveryId,
      'X-Webhook-Attempt': '3',
      'X-Webhook-Timestamp': '1700000000',
      'webhook-id': message.eventId,
      'webhook-timestamp': '1700000000',
    });
  });
});
