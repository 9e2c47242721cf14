/**
 * The one module that knows how a key names its tenant. Every tenant-owned partition key is
 * `<tenant>#<part>#<part>…`, so a request scoped to one tenant (a workspace in one mode, see
 * `tenantOf`) cannot address another's data, or the other mode's, by construction.
 */
import { K } from './registry/registry';
import { storedTenant, type Tenant } from '../domain/auth/tenant';

/** A partition key of the tenant: the tenant alone, or the tenant followed by `parts`. */
export const tenantPk = (tenant: Tenant, ...parts: string[]): string => [K.WS, tenant, ...parts].join('#');

/**
 * A sort key of a cross-tenant index (timers and sweeps read every tenant's due items in order):
 * `<order>#<tenant>#<id>`, sorted by `order`, with the tenant and id read back by `fromIndexSk`.
 */
export const indexSk = (order: string, tenant: Tenant, id: string): string => `${order}#${tenant}#${id}`;

export const fromIndexSk = (sk: string): { tenant: Tenant; id: string } => {
  const [, tenant, id] = sk.split('#');
  return { tenant: storedTenant(tenant!), id: id! };
};
