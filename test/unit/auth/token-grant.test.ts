import { describe, expect, it } from 'vitest';
import { grantToken, manages } from '../../../shared/domain/auth/token-grant';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const now = new Date('2026-06-01T00:00:00Z');
const caller = { scopes: ['tags:read', 'inbox:write'], workspaceIds: [A], livemode: true };

describe('granting a token', () => {
  it("defaults to the workspace acted in and the caller's mode, and drops repeated scopes", () => {
    expect(grantToken(caller, A, { name: 'n', scopes: ['tags:read', 'tags:read'] }, now)).toEqual({
      name: 'n',
      scopes: ['tags:read'],
      workspaceIds: [A],
      livemode: true,
    });
  });

  it('refuses a scope the caller does not hold, naming it', () => {
    expect(() => grantToken(caller, A, { name: 'n', scopes: ['tags:read', 'crm:delete'] }, now)).toThrow(/not held: crm:delete/);
    expect(grantToken({ ...caller, scopes: ['admin:all'] }, A, { name: 'n', scopes: ['crm:delete'] }, now).scopes).toEqual(['crm:delete']);
  });

  it('refuses a workspace the caller lacks, and a live token from a test caller', () => {
    expect(() => grantToken(caller, A, { name: 'n', scopes: ['tags:read'], workspaceIds: [A, B] }, now)).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_ACCESS_DENIED' }),
    );
    expect(() => grantToken({ ...caller, livemode: false }, A, { name: 'n', scopes: ['tags:read'], test: false }, now)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    expect(grantToken(caller, A, { name: 'n', scopes: ['tags:read'], test: true }, now).livemode).toBe(false);
  });

  it('refuses an expiry that is not in the future', () => {
    expect(() => grantToken(caller, A, { name: 'n', scopes: ['tags:read'], expiresAt: now.toISOString() }, now)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });
});

describe('which tokens a caller manages', () => {
  it("those bound to the workspace, in the caller's mode, and to none of someone else's workspaces", () => {
    expect(manages(caller, A, { workspaceIds: [A], livemode: true })).toBe(true);
    expect(manages(caller, A, { workspaceIds: [A], livemode: false })).toBe(false);
    expect(manages(caller, A, { workspaceIds: [A, B], livemode: true })).toBe(false);
    expect(manages(caller, B, { workspaceIds: [B], livemode: true })).toBe(false);
  });
});
