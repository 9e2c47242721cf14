import type { Tenant } from '../domain/auth/tenant';
import { eventGuard, scheduleGuard } from './registry/workflows';
import { createItem, type Write } from './transact';

/** Dedupe guards live a week, longer than any redelivery of the event or schedule tick they guard. */
const guardTtl = (now: Date) => Math.floor(now.getTime() / 1000) + 7 * 24 * 3600;

/**
 * The guards that one event starts a workflow once, and one scheduled run (the time it was due) once:
 * created in the start's transaction, so a redelivery fails it and starts nothing.
 */
export const eventStartGuard = (tenant: Tenant, eventId: string, workflowId: string, now: Date): Write =>
  createItem({ ...eventGuard.key({ tenant, eventId, workflowId }), type: 'WF_GUARD', ttl: guardTtl(now) });

export const scheduledRunGuard = (tenant: Tenant, workflowId: string, nextRunAt: string, now: Date): Write =>
  createItem({ ...scheduleGuard.key({ tenant, workflowId, nextRunAt }), type: 'WF_SCHEDULE_GUARD', ttl: guardTtl(now) });
