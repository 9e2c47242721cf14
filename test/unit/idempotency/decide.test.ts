import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConflictError, ValidationError } from '../../../shared/domain/errors';
import { decide, IdempotencyInProgress, type IdempotencyRecord } from '../../../shared/domain/idempotency/decide';
import { checkIdempotencyKey, requestFingerprint } from '../../../shared/domain/idempotency/key';

const NOW = 1_800_000_000;
const response = { statusCode: 201, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{"success":true,"data":{}}' };
const record = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  fingerprint: 'fp',
  status: 'done',
  lockUntil: NOW - 100,
  expiresAt: NOW + 3600,
  commits: 0,
  response,
  ...over,
});

describe('Idempotency-Key values', () => {
  it('accept 1 to 255 printable ASCII characters, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 255 }),
        (key) => {
          expect(checkIdempotencyKey(key)).toBe(key);
        },
      ),
    );
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'clé', 'new\nline'])
      expect(() => checkIdempotencyKey(bad)).toThrow(ValidationError);
  });
});

describe('request fingerprints', () => {
  it('differ when the method, the path or a byte of the body differs', () => {
    const base = requestFingerprint('POST', '/a', Buffer.from('{"x":1}'));
    expect(requestFingerprint('POST', '/a', Buffer.from('{"x":1}'))).toBe(base);
    for (const other of [
      requestFingerprint('PATCH', '/a', Buffer.from('{"x":1}')),
      requestFingerprint('POST', '/b', Buffer.from('{"x":1}')),
      requestFingerprint('POST', '/a', Buffer.from('{"x": 1}')),
    ])
      expect(other).not.toBe(base);
  });
});

describe('what a keyed request does', () => {
  it('claims a key that has no record, or whose record expired', () => {
    expect(decide('k', undefined, 'fp', NOW)).toEqual({ kind: 'claim' });
    expect(decide('k', record({ expiresAt: NOW, fingerprint: 'other' }), 'fp', NOW)).toEqual({ kind: 'claim' });
  });

  it('replays the kept response of the same request', () => {
    expect(decide('k', record(), 'fp', NOW)).toEqual({ kind: 'replay', response });
  });

  it('refuses another request under the key, whatever state the first is in', () => {
    for (const r of [record(), record({ status: 'running', lockUntil: NOW + 10 }), record({ status: 'running', commits: 2 })]) {
      expect(() => decide('k', { ...r, fingerprint: 'other' }, 'fp', NOW)).toThrow(/different request/);
    }
  });

  it('answers a repeat while the first runs with 409 and a retry hint', () => {
    const error = (() => {
      try {
        decide('k', record({ status: 'running', lockUntil: NOW + 30, response: undefined }), 'fp', NOW);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(IdempotencyInProgress);
    expect((error as ConflictError).details).toEqual({ idempotencyKey: 'k', retryAfter: 1 });
  });

  it('takes over a first request that ran out of time having committed nothing, and never reruns one that committed', () => {
    expect(decide('k', record({ status: 'running', response: undefined }), 'fp', NOW)).toEqual({ kind: 'claim' });
    expect(() => decide('k', record({ status: 'running', commits: 1, response: undefined }), 'fp', NOW)).toThrow(/will not run again/);
  });
});
