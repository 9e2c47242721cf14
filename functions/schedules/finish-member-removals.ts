import { pendingRemovals, resumeRemoval } from '../../shared/data/member-removal';
import { drainDue } from '../../shared/data/timers';
import { scheduled } from '../../shared/observability/invocation';

/** A removal's request normally finishes its own unassignments; this completes those a crash interrupted. */
const GRACE_MS = 60_000;

/** Every minute: unassigns the open conversations of members whose removal did not finish (see member-removal.ts). */
export const handler = scheduled(async (): Promise<{ finished: number }> => {
  const now = new Date();
  const finished = await drainDue(
    'member removal',
    (limit) => pendingRemovals(new Date(now.getTime() - GRACE_MS), limit),
    ({ tenant, id }) => resumeRemoval(tenant, id, now),
  );
  return { finished };
});
