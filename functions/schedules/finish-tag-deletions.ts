import { finishInterruptedDeletions } from '../../shared/tags/deletions';
import { log } from '../../shared/log';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

const RUN_BUDGET_MS = 45_000;

/** Every 5 minutes: finish tag deletions that a crash or the request time budget left half-way. */
export const handler = scheduled(async (): Promise<{ finished: number }> => {
  const finished = await finishInterruptedDeletions(direct, new Date(), Date.now() + RUN_BUDGET_MS);
  if (finished > 0) log.info('finished interrupted tag deletions', { finished });
  return { finished };
});
