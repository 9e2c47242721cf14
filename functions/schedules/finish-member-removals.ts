import { finishInterruptedRemovals } from '../../shared/workspace/member-removals';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: finishes the member removals a crash interrupted. */
export const handler = scheduled(
  async (): Promise<{ finished: number }> => ({ finished: await finishInterruptedRemovals(direct, new Date()) }),
);
