import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admissionRefusal,
  RATE_LIMITS,
  rateCategory,
  rateHeaders,
  secondsUntil,
  WINDOW_SECONDS,
  windowOf,
} from '../../../shared/domain/auth/rate-limit';
import { grants } from '../../../shared/domain/auth/scopes';

describe('rate-limit categories', () => {
  it.each([
    ['GET', '/api/v1/inbox/conversations', 'read'],
    ['POST', '/api/v1/integrations/webhooks', 'write'],
    ['PATCH', '/api/v1/integrations/webhooks/abc', 'write'],
    ['PUT', '/api/v1/ai/settings', 'write'],
    ['DELETE', '/api/v1/integrations/webhooks/abc', 'delete'],
    ['GET', '/api/v1/auth/workspaces', 'auth'],
    ['POST', '/api/v1/tags/bulk', 'bulk'],
    ['POST', '/api/v1/tags/bulk/remove', 'bulk'],
    ['GET', '/api/v1/tags/bulky', 'read'],
    ['POST', '/api/v1/contacts/customers/batch', 'bulk'],
    ['GET', '/api/v1/contacts/customers/batches', 'read'],
  ])('%s %s counts as %s', (method, path, category) => {
    expect(rateCategory(method, path)).toBe(category);
  });

  it('has the contract limits per 15-minute window', () => {
    expect(RATE_LIMITS).toEqual({ read: 300, write: 100, delete: 50, auth: 20, bulk: 10 });
    expect(WINDOW_SECONDS).toBe(900);
  });
});

describe('fixed windows', () => {
  it('are 15 minutes long, aligned to the epoch, and contain the instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (ms) => {
        const { start, end } = windowOf(new Date(ms));
        expect(start % 900).toBe(0);
        expect(end - start).toBe(900);
        expect(start * 1000).toBeLessThanOrEqual(ms);
        expect(ms).toBeLessThan(end * 1000);
      }),
    );
  });

  it('tells the wait in whole seconds, at least one', () => {
    const now = new Date('2026-01-01T00:14:59.500Z');
    const { end } = windowOf(now);
    expect(secondsUntil(end, now)).toBe(1);
    expect(secondsUntil(end, new Date('2026-01-01T00:00:00Z'))).toBe(900);
  });

  it('reports remaining requests, never negative', () => {
    expect(rateHeaders(100, 1, 42)).toEqual({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': '42' });
    expect(rateHeaders(10, 10, 42)['X-RateLimit-Remaining']).toBe('0');
    expect(rateHeaders(10, 11, 42)['X-RateLimit-Remaining']).toBe('0');
  });
});

describe('scopes', () => {
  it('grants a held scope and nothing else', () => {
    expect(grants(['inbox:read'], 'inbox:read')).toBe(true);
    expect(grants(['inbox:read'], 'inbox:write')).toBe(false);
  });
  it('lets admin:all stand for every scope', () => {
    expect(grants(['admin:all'], 'webhooks:write')).toBe(true);
  });
});

describe('why a conditional admission was refused', () => {
  const start = 1_800_000_000;
  it('does not count a token that is not bound to the workspace, and reports its usage in this window only', () => {
    expect(admissionRefusal({ window: start, count: 7, bound: false }, start, 10)).toEqual({ kind: 'unbound', used: 7 });
    expect(admissionRefusal({ window: start - 900, count: 7, bound: false }, start, 10)).toEqual({ kind: 'unbound', used: 0 });
  });
  it('is full when this window has reached the limit', () => {
    expect(admissionRefusal({ window: start, count: 10, bound: true }, start, 10)).toEqual({ kind: 'limited', used: 10 });
  });
  it('opens a new window when none is stored or the stored one is older', () => {
    expect(admissionRefusal({ window: undefined, count: undefined, bound: true }, start, 10)).toEqual({ kind: 'open-window' });
    expect(admissionRefusal({ window: start - 900, count: 10, bound: true }, start, 10)).toEqual({ kind: 'open-window' });
  });
  it('counts in the stored window when it has room or is later (another container opened it first)', () => {
    expect(admissionRefusal({ window: start, count: 3, bound: true }, start, 10)).toEqual({ kind: 'count-in', start });
    expect(admissionRefusal({ window: start + 900, count: 10, bound: true }, start, 10)).toEqual({ kind: 'count-in', start: start + 900 });
  });
});
