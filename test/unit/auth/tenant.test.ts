import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { storedTenant, tenantOf, tenantParts, type Tenant, liveTenant, testTenant } from '../../../shared/domain/auth/tenant';
import { tenantPk } from '../../../shared/data/keys';
import { conversation } from '../../../shared/data/registry/inbox';

/** A cross-tenant index sort key (`<order>#<tenant>#<id>`, the snoozed conversations' timer index), and what a reader takes back from it. */
const indexSk = (order: string, tenant: Tenant, id: string) => conversation.index('gsi1', { snoozedUntil: order, tenant, id }).gsi1sk;
const fromIndexSk = (sk: string) => {
  const { tenant, id } = conversation.read('gsi1sk', sk);
  return { tenant: storedTenant(tenant), id };
};

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);

describe('the tenant of a workspace in one mode', () => {
  it('is the workspace id itself in live mode, so live keys are the keys from before test mode', () => {
    fc.assert(
      fc.property(hexId, (ws) => {
        expect(tenantPk(liveTenant(ws), 'CUST')).toBe(`WS#${ws}#CUST`);
      }),
    );
  });

  it('gives the two modes of a workspace, and any two workspaces, keys that never meet', () => {
    fc.assert(
      fc.property(hexId, hexId, (a, b) => {
        const tenants = [liveTenant(a), testTenant(a), ...(a === b ? [] : [liveTenant(b), testTenant(b)])];
        expect(new Set(tenants.map((t) => tenantPk(t))).size).toBe(tenants.length);
        for (const t of tenants) for (const u of tenants) if (t !== u) expect(tenantPk(t, 'X').startsWith(`${tenantPk(u)}#`)).toBe(false);
      }),
    );
  });

  it('reads back as the real workspace id and livemode, also from a cross-tenant index sort key', () => {
    fc.assert(
      fc.property(hexId, fc.boolean(), hexId, (ws, livemode, id) => {
        const tenant = tenantOf(ws, livemode);
        expect(tenantParts(tenant)).toEqual({ workspaceId: ws, livemode });
        expect(fromIndexSk(indexSk('2026-01-01T00:00:00.000Z', tenant, id))).toEqual({ tenant, id });
      }),
    );
  });
});

describe('the tenant type (checked by `tsc`: an unused `@ts-expect-error` fails the build)', () => {
  const workspaceId = '65f0c0ffee00000000000001';

  it('takes no plain workspace id, though a tenant is still a string wherever one is read', () => {
    expectTypeOf(workspaceId).not.toExtend<Tenant>();
    expectTypeOf(liveTenant(workspaceId)).toExtend<string>();
    // @ts-expect-error a workspace id is not a tenant, even where the live tenant's key is the same text
    expect(tenantPk(workspaceId)).toBe(tenantPk(liveTenant(workspaceId)));
  });

  it('is made by tenantOf or read back from a key, never written as a string', () => {
    // @ts-expect-error a string spelled like a test-mode tenant is still not one
    const spelled: Tenant = `${workspaceId}~test`;
    expect(spelled).toBe(testTenant(workspaceId));
    expect(fromIndexSk(indexSk('2026-01-01T00:00:00.000Z', testTenant(workspaceId), 'x')).tenant).toBe(spelled);
  });

  it('reads back from a stored key only what tenantOf can make, refusing anything else as corrupt', () => {
    for (const stored of ['ws1', workspaceId.toUpperCase(), `${workspaceId}~live`, `${workspaceId}~test~test`, '']) {
      expect(() => fromIndexSk(`2026-01-01T00:00:00.000Z#${stored}#x`)).toThrow('not a stored tenant');
    }
  });
});
