import { outboxHandler } from '../../shared/events/from-bus';
import { log } from '../../shared/log';
import { fanOut } from '../../shared/webhooks/fanout';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target: one delivery per active matching subscription, written idempotently, then enqueued. */
export const handler = outboxHandler(async ({ envelope }) => {
  const deliveries = await fanOut(direct, envelope);
  if (deliveries > 0) log.info('webhook fan-out', { deliveries });
});
