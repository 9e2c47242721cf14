import type { Tenant } from '../domain/auth/tenant';
import { tenantPk } from './keys';
import { K } from './registry/registry';
import { createItem, type Write } from './transact';

/** Dedupe guards live a week, longer than any redelivery of the event or schedule tick they guard. */
const guardTtl = (now: Date) => Math.floor(now.getTime() / 1000) + 7 * 24 * 3600;

const PARTITION = { event: K.WFEVT, schedule: K.WFSCHED } as const;

/**
 * The guard that one event (by its id) or one schedule tick (by the workflow's id) starts a workflow once:
 * created in the start's transaction, so a redelivery fails it and starts nothing.
 */
export const triggerGuard = (tenant: Tenant, by: keyof typeof PARTITION, id: string, sk: string, now: Date): Write =>
  createItem({ pk: tenantPk(tenant, PARTITION[by], id), sk, type: 'WF_GUARD', ttl: guardTtl(now) });
