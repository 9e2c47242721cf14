import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyError, classifyResponse, failureReasonOf, parseRetryAfter } from '../../../shared/domain/webhooks/classify';

describe('attempt classification', () => {
  it('treats every 2xx as success', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 299 }), (s) => {
        expect(classifyResponse(s)).toEqual({ kind: 'success', httpStatus: s });
      }),
    );
  });

  it('ends the delivery on 410 with gone_410 and no retry', () => {
    expect(classifyResponse(410)).toEqual({ kind: 'terminal', failureReason: 'gone_410', httpStatus: 410 });
  });

  it('retries every other status, naming redirects and statuses specifically', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((s) => (s < 200 || s >= 300) && s !== 410),
        (s) => {
          const outcome = classifyResponse(s);
          expect(outcome.kind).toBe('retry');
          expect(outcome).toMatchObject({ httpStatus: s, failureReason: s >= 300 && s < 400 ? `redirect_${s}` : `http_${s}` });
        },
      ),
    );
  });

  it('honours Retry-After (seconds or HTTP date) on 429 and 503 only', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(classifyResponse(429, '120', now)).toMatchObject({ retryAfterMs: 120_000 });
    expect(classifyResponse(503, 'Thu, 01 Jan 2026 00:00:30 GMT', now)).toMatchObject({ retryAfterMs: 30_000 });
    expect(classifyResponse(500, '120', now)).not.toHaveProperty('retryAfterMs');
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it.each([
    ['TIMEOUT', 'timeout'],
    ['ENOTFOUND', 'dns_error'],
    ['EAI_AGAIN', 'dns_error'],
    ['ECONNREFUSED', 'connection_refused'],
    ['ECONNRESET', 'connection_reset'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls_error'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls_error'],
    ['CERT_HAS_EXPIRED', 'tls_error'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls_error'],
    ['SSRF_BLOCKED', 'ssrf_blocked'],
    ['EHOSTUNREACH', 'connection_error'],
    [undefined, 'connection_error'],
  ])('maps transport error %s to %s, retried', (code, reason) => {
    expect(failureReasonOf(code)).toBe(reason);
    expect(classifyError(code)).toEqual({ kind: 'retry', failureReason: reason });
  });
});
