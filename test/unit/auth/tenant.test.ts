import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tenantOf, tenantParts } from '../../../shared/domain/auth/tenant';
import { fromIndexSk, indexSk, tenantPk } from '../../../shared/data/keys';

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);

describe('the tenant of a workspace in one mode', () => {
  it('is the workspace id itself in live mode, so live keys are the keys from before test mode', () => {
    fc.assert(
      fc.property(hexId, (ws) => {
        expect(tenantPk(tenantOf(ws, 'live'), 'CUST')).toBe(`WS#${ws}#CUST`);
      }),
    );
  });

  it('gives the two modes of a workspace, and any two workspaces, keys that never meet', () => {
    fc.assert(
      fc.property(hexId, hexId, (a, b) => {
        const tenants = [tenantOf(a, 'live'), tenantOf(a, 'test'), ...(a === b ? [] : [tenantOf(b, 'live'), tenantOf(b, 'test')])];
        expect(new Set(tenants.map((t) => tenantPk(t))).size).toBe(tenants.length);
        for (const t of tenants) for (const u of tenants) if (t !== u) expect(tenantPk(t, 'X').startsWith(`${tenantPk(u)}#`)).toBe(false);
      }),
    );
  });

  it('reads back as the real workspace id and livemode, also from a cross-tenant index sort key', () => {
    fc.assert(
      fc.property(hexId, fc.constantFrom('live' as const, 'test' as const), hexId, (ws, mode, id) => {
        const tenant = tenantOf(ws, mode);
        expect(tenantParts(tenant)).toEqual({ workspaceId: ws, livemode: mode === 'live' });
        expect(fromIndexSk(indexSk('2026-01-01T00:00:00.000Z', tenant, id))).toEqual({ tenant, id });
      }),
    );
  });
});
