import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, signature } from '../../../shared/domain/webhooks/sign';

const secretArb = fc.stringMatching(/^[\x21-\x7e]{16,64}$/);
const message = { eventId: '65a1b2c3d4e5f60718293a4b', eventType: 'inbox.message.received', deliveryId: '65a1b2c3aabbccddeeff0011', attemptNumber: 3 };

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
