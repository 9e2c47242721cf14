/**
 * The one module that knows how a key names its tenant. Every tenant-owned partition key is
 * `<tenant>#<part>#<part>…`, so a request scoped to one tenant (a workspace in one mode, see
 * `tenantOf`) cannot address another's data, or the other mode's, by construction.
 */
import { K } from './registry/registry';
import type { Tenant } from '../domain/auth/tenant';

/** A partition key of the tenant: the tenant alone, or the tenant followed by `parts`. */
export const tenantPk = (tenant: Tenant, ...parts: string[]): string => [K.WS, tenant, ...parts].join('#');
