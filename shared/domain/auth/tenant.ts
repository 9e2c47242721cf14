import * as z from 'zod';
import { built } from '../built';

declare const tenantBrand: unique symbol;

/**
 * Whose data a request reads and writes: a workspace in one mode. Live is the workspace id alone, so live
 * keys are the keys from before test mode existed; test appends `~test` (`~` is in no hex id and no key
 * separator), so each mode has its own entities, counters and sequences under every key built from it.
 * Branded: a plain workspace id is not a tenant, so only `tenantOf` and `storedTenant` make one.
 */
export type Tenant = string & { readonly [tenantBrand]: true };

const TEST_SUFFIX = '~test';

export const tenantOf = (workspaceId: string, livemode: boolean): Tenant =>
  (livemode ? workspaceId : `${workspaceId}${TEST_SUFFIX}`) as Tenant;

/** A workspace's live tenant, also where the items of the workspace itself live (its settings, members, token bindings). */
export const liveTenant = (workspaceId: string): Tenant => tenantOf(workspaceId, true);

export const testTenant = (workspaceId: string): Tenant => tenantOf(workspaceId, false);

const STORED = /^[0-9a-f]{24}(~test)?$/;

/** Whether a value read back from storage or a queue message is a tenant as `tenantOf` makes them. */
const isStoredTenant = (value: unknown): value is Tenant => typeof value === 'string' && STORED.test(value);

/** A tenant field of a stored item or a queue message, parsed. */
export const tenantField = /* @__PURE__ */ built(() => z.custom<Tenant>(isStoredTenant));

/** A tenant read back from where one was stored whole (an index sort key); anything else there is corrupt data. */
export const storedTenant = (stored: string): Tenant => {
  if (!isStoredTenant(stored)) throw new Error(`not a stored tenant: ${JSON.stringify(stored)}`);
  return stored as Tenant;
};

/** What users see of a tenant: the real workspace id and whether it is live (Stripe's `livemode`). */
export const tenantParts = (tenant: Tenant): { workspaceId: string; livemode: boolean } =>
  tenant.endsWith(TEST_SUFFIX)
    ? { workspaceId: tenant.slice(0, -TEST_SUFFIX.length), livemode: false }
    : { workspaceId: tenant, livemode: true };
