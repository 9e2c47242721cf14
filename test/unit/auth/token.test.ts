import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateToken,
  hashToken,
  randomBase62,
  sameHash,
  TOKEN_PATTERN,
  tokenState,
  visiblePrefix,
} from '../../../shared/domain/auth/token';

describe('API token format', () => {
  it('is sk_live_ or sk_test_ followed by 48 base62 characters (56 in all, ≥ 48 as the contract requires)', () => {
    for (const [livemode, prefix] of [
      [true, 'sk_live_'],
      [false, 'sk_test_'],
    ] as const) {
      const token = generateToken(livemode);
      expect(token).toMatch(TOKEN_PATTERN);
      expect(token.startsWith(prefix)).toBe(true);
      expect(token).toHaveLength(56);
    }
  });

  it('shows exactly the first 16 characters as the visible prefix', () => {
    const token = generateToken(true);
    expect(visiblePrefix(token)).toBe(token.slice(0, 16));
    expect(visiblePrefix(token)).toHaveLength(16);
  });

  it('draws base62 symbols only, whatever bytes the random source yields', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        let call = 0;
        const source = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => bytes[(call * n + i) % bytes.length]! % 248));
        const out = randomBase62(48, (n) => {
          call++;
          return source(n);
        });
        expect(out).toMatch(/^[0-9A-Za-z]{48}$/);
      }),
    );
  });

  it('rejects the biased tail of the byte range instead of folding it onto the first symbols', () => {
    const calls: number[] = [];
    const out = randomBase62(4, (n) => {
      calls.push(n);
      return calls.length === 1 ? Buffer.alloc(n, 250) : Buffer.alloc(n, 1);
    });
    expect(out).toBe('1111');
    expect(calls.length).toBe(2);
  });

  it('never repeats across many generations', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateToken(true)));
    expect(seen.size).toBe(2000);
  });
});

describe('token storage', () => {
  it('stores a SHA-256 hex digest, never the token', () => {
    const token = generateToken(true);
    const hash = hashToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(8));
    expect(hashToken(token)).toBe(hash);
  });

  it('compares digests in constant time and refuses different ones', () => {
    const a = hashToken(generateToken(true));
    const b = hashToken(generateToken(true));
    expect(sameHash(a, a)).toBe(true);
    expect(sameHash(a, b)).toBe(false);
    expect(sameHash(a, a.slice(0, 10))).toBe(false);
  });
});

describe('token state', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('is active without revocation or expiry', () => expect(tokenState({}, now)).toBe('active'));
  it('is active until the instant it expires, then expired', () => {
    expect(tokenState({ expiresAt: '2026-06-01T12:00:00.001Z' }, now)).toBe('active');
    expect(tokenState({ expiresAt: '2026-06-01T12:00:00.000Z' }, now)).toBe('expired');
  });
  it('is revoked once revoked, even before its expiry', () => {
    expect(tokenState({ revokedAt: '2026-05-01T00:00:00Z', expiresAt: '2027-01-01T00:00:00Z' }, now)).toBe('revoked');
  });
});
