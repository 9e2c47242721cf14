import { log } from '../../shared/log';
import { requeueStalled } from '../../shared/webhooks/sweep';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: re-enqueue deliveries that are overdue with no attempt under way (lost messages). */
export const handler = scheduled(async (): Promise<void> => {
  const requeued = await requeueStalled(direct);
  if (requeued > 0) log.warn('requeued stalled webhook deliveries', { requeued });
});
