import { sweepRetention } from '../../shared/inbox/retention';
import { log } from '../../shared/log';
import { metric } from '../../shared/observability/metrics';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every hour: deletes the closed conversations past their workspace's retention, with their messages and files. */
export const handler = scheduled(async () => {
  const counts = await sweepRetention(direct, new Date());
  log.info('retention sweep', { ...counts });
  metric.retentionSweep(counts);
  return counts;
});
