import { Refused } from '../domain/refusal';
import { tenantParts, type Tenant } from '../domain/auth/tenant';
import { businessIntervals, freeSlots } from '../domain/scheduling/availability';
import { busySlots } from '../data/bookings';
import { isActiveMember } from '../data/members';
import { getWorkspace } from '../data/workspaces';

export interface AvailabilityQuery {
  assigneeId: string;
  from: string;
  to: string;
  durationMinutes: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Free slots of an active member: the workspace's business hours (in its timezone, so a DST change moves
 * them in UTC) minus the quarter hours their bookings claim, from now on. Costs O(days + claims in range).
 */
export const availability = async (tenant: Tenant, q: AvailabilityQuery, now: Date) => {
  const [workspace, active] = await Promise.all([getWorkspace(tenantParts(tenant).workspaceId), isActiveMember(tenant, q.assigneeId)]);
  if (!active) throw new Refused('assignee_not_active', 'Must be an active member of this workspace');
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  const busy = await busySlots(tenant, q.assigneeId, iso(from), iso(to));
  const slots = freeSlots(
    businessIntervals(workspace!.businessHours, workspace!.timezone, from, to),
    busy,
    q.durationMinutes,
    now.getTime(),
  );
  return {
    assigneeId: q.assigneeId,
    timezone: workspace!.timezone,
    durationMinutes: q.durationMinutes,
    from: iso(from),
    to: iso(to),
    slots: slots.map((s) => ({ startAt: iso(s.start), endAt: iso(s.end) })),
  };
};
