import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedTenant, tenantOf } from '../../../shared/domain/auth/tenant';
import { tenantPk } from '../../../shared/data/keys';
import { conversation } from '../../../shared/data/registry/inbox';

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);
const tenantArb = fc.tuple(hexId, fc.boolean()).map(([ws, livemode]) => tenantOf(ws, livemode));

describe('tenant keys', () => {
  it('start every partition key with its tenant, so two tenants never share a key', () => {
    fc.assert(
      fc.property(tenantArb, tenantArb, fc.array(fc.stringMatching(/^[A-Z_]{1,12}$/), { maxLength: 3 }), (a, b, parts) => {
        expect(tenantPk(a, ...parts).startsWith(tenantPk(a))).toBe(true);
        if (a !== b) expect(tenantPk(a, ...parts)).not.toBe(tenantPk(b, ...parts));
      }),
    );
  });

  it('read the tenant and id back from a cross-tenant index sort key', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), tenantArb, hexId, (at, tenant, id) => {
        const { gsi1sk } = conversation.index('gsi1', { snoozedUntil: at.toISOString(), tenant, id });
        const read = conversation.read('gsi1sk', gsi1sk);
        expect({ tenant: storedTenant(read.tenant), id: read.id }).toEqual({ tenant, id });
      }),
    );
  });
});
