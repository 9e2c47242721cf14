import type { Tenant } from '../domain/auth/tenant';
import { removeMember, type Member } from '../domain/auth/member';
import { releaseEmail } from '../data/members';
import { pendingRemovals, removalFinished, removalPending } from '../data/member-removal';
import type { Unit } from '../data/unit';
import { drainDue } from '../data/timers';
import { unassignMemberConversations } from '../inbox/conversations';
import { mutateMember } from './members';

/**
 * Removing a member: one transaction marks the member `removed` (from then on no write can assign them:
 * every assignment checks `activeMemberCheck` in its own transaction), releases the email and puts the
 * member on the pending-removal index. Then each of their open conversations is unassigned in its own
 * transaction (see `unassignMemberConversations`), and the index entry goes. A crash in between leaves the
 * entry, and the `finish-member-removals` timer completes the work: nothing is lost and nothing is done twice.
 */
const finishRemoval = async (unit: Unit, tenant: Tenant, memberId: string, now: Date): Promise<void> => {
  await unassignMemberConversations(unit, tenant, memberId, now);
  await unit.commit([removalFinished(tenant, memberId)]);
};

export const removeMemberById = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Member> => {
  const member = await mutateMember(
    unit,
    tenant,
    id,
    (m) => removeMember(m, now),
    now,
    (m) => ({ writes: [releaseEmail(tenant, m)], set: removalPending(tenant, id, now) }),
  );
  await finishRemoval(unit, tenant, id, now);
  return member;
};

/** A removal's own request finishes its unassignments; one pending this long after it started was interrupted. */
const GRACE_MS = 60_000;

/** Unassigns the open conversations of members whose removal did not finish; returns how many. */
export const finishInterruptedRemovals = (unit: Unit, now: Date): Promise<number> =>
  drainDue(
    'member removal',
    (limit) => pendingRemovals(new Date(now.getTime() - GRACE_MS), limit),
    async ({ tenant, id }) => {
      await finishRemoval(unit, tenant, id, now);
      return true;
    },
  );
