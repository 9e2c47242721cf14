import type { TokenEnvironment } from './token';

/**
 * Whose data a request reads and writes: a workspace in one mode. Live is the workspace id alone, so live
 * keys are the keys from before test mode existed; test appends `~test` (`~` is in no hex id and no key
 * separator), so each mode has its own entities, counters and sequences under every key built from it.
 */
export type Tenant = string;

const TEST_SUFFIX = '~test';

export const tenantOf = (workspaceId: string, mode: TokenEnvironment): Tenant => (mode === 'live' ? workspaceId : `${workspaceId}${TEST_SUFFIX}`);

/** What users see of a tenant: the real workspace id and whether it is live (Stripe's `livemode`). */
export const tenantParts = (tenant: Tenant): { workspaceId: string; livemode: boolean } =>
  tenant.endsWith(TEST_SUFFIX) ? { workspaceId: tenant.slice(0, -TEST_SUFFIX.length), livemode: false } : { workspaceId: tenant, livemode: true };
