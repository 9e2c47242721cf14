import { finishStaleDeletions } from '../../shared/data/tags-delete';
import { log } from '../../shared/log';
import { scheduled } from '../../shared/observability/invocation';

/** A DELETE sweeps for at most 15 s; a deletion hidden this long ago is no longer being worked on. */
const STALE_MS = 2 * 60_000;
const RUN_BUDGET_MS = 45_000;

/** Every 5 minutes: finish tag deletions that a crash or the request time budget left half-way. */
export const handler = scheduled(async (): Promise<{ finished: number }> => {
  const now = new Date();
  const finished = await finishStaleDeletions(new Date(now.getTime() - STALE_MS), now, Date.now() + RUN_BUDGET_MS);
  if (finished > 0) log.info('finished interrupted tag deletions', { finished });
  return { finished };
});
