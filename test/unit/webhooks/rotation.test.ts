import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders } from '../../../shared/domain/webhooks/sign';
import { generateSecret, MAX_PREVIOUS_SECRETS, rotatedSecrets, validPreviousSecrets } from '../../../shared/domain/webhooks/subscription';
import { loggedBody } from '../../../shared/domain/webhooks/logged-body';

const message = {
  eventId: '65a1b2c3d4e5f60718293a4b',
  eventType: 'webhook.ping',
  deliveryId: '65a1b2c3aabbccddeeff0011',
  attemptNumber: 1,
};
const at = new Date('2026-03-01T12:00:00Z');

describe('secret rotation', () => {
  it('keeps the replaced secret valid for the overlap only, and none at all for an overlap of 0', () => {
    const secret = generateSecret();
    const rotated = rotatedSecrets({ secret }, 60, at);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.previousSecrets).toEqual([{ secret, expiresAt: '2026-03-01T12:01:00.000Z' }]);
    expect(validPreviousSecrets(rotated, new Date(at.getTime() + 59_999))).toEqual([secret]);
    expect(validPreviousSecrets(rotated, new Date(at.getTime() + 60_000))).toEqual([]);
    expect(rotatedSecrets({ secret }, 0, at).previousSecrets).toEqual([]);
  });

  it('keeps earlier replaced secrets in the order they were replaced, drops expired ones and keeps at most four', () => {
    let sub: { secret: string; previousSecrets?: { secret: string; expiresAt: string }[] } = { secret: generateSecret() };
    const replaced: string[] = [];
    for (let i = 0; i < MAX_PREVIOUS_SECRETS + 2; i++) {
      replaced.push(sub.secret);
      sub = rotatedSecrets(sub, 3600, new Date(at.getTime() + i * 1000));
    }
    expect(sub.previousSecrets!.map((p) => p.secret)).toEqual(replaced.slice(-MAX_PREVIOUS_SECRETS));
    const later = rotatedSecrets(sub, 60, new Date(at.getTime() + 7200_000));
    expect(later.previousSecrets!.map((p) => p.secret)).toEqual([sub.secret]);
  });

  it('signs with every valid secret in webhook-signature and with the earliest replaced one in X-Webhook-Signature', async () => {
    const [old, older, current] = [generateSecret(), generateSecret(), generateSecret()];
    const body = '{"eventId":"e"}';
    const headers = deliveryHeaders(current, body, { ...message, timestamp: Math.floor(Date.now() / 1000) }, [older, old]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(3);
    for (const s of [current, old, older]) expect(new Webhook(s).verify(body, headers)).toEqual({ eventId: 'e' });
    expect(await octokitVerify(older, body, headers['X-Webhook-Signature']!)).toBe(true);
    const plain = deliveryHeaders(current, body, { ...message, timestamp: Math.floor(Date.now() / 1000) });
    expect(await octokitVerify(current, body, plain['X-Webhook-Signature']!)).toBe(true);
    expect(plain['webhook-signature']!.split(' ')).toHaveLength(1);
  });
});

describe('bodies in the delivery log', () => {
  it('keeps a body up to 4096 bytes whole and cuts a longer one there, never inside a character', () => {
    expect(loggedBody(Buffer.from('x'.repeat(4096)))).toEqual({ body: 'x'.repeat(4096), bodyTruncated: false });
    const cut = loggedBody(Buffer.from(`x${'é'.repeat(3000)}`));
    expect(cut.bodyTruncated).toBe(true);
    expect(cut.body).toBe(`x${'é'.repeat(2047)}`);
  });
});
