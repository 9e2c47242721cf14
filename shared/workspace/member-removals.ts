import { pendingRemovals, resumeRemoval } from '../data/member-removal';
import { drainDue } from '../data/timers';

export { removeMemberById } from '../data/member-removal';

/** A removal's own request finishes its unassignments; one pending this long after it started was interrupted. */
const GRACE_MS = 60_000;

/** Unassigns the open conversations of members whose removal did not finish (see shared/data/member-removal.ts); returns how many. */
export const finishInterruptedRemovals = (now: Date): Promise<number> =>
  drainDue(
    'member removal',
    (limit) => pendingRemovals(new Date(now.getTime() - GRACE_MS), limit),
    ({ tenant, id }) => resumeRemoval(tenant, id, now),
  );
