import { recordEvent } from '../../shared/analytics/record';
import { outboxHandler } from '../../shared/events/from-bus';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target (the counted inbox and CRM events): adds the event to its day's aggregates, once. */
export const handler = outboxHandler(async ({ envelope }) => {
  await recordEvent(direct, envelope);
});
