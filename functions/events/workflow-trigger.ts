import { outboxHandler } from '../../shared/events/from-bus';
import { log } from '../../shared/log';
import { onEvent } from '../../shared/workflows/triggers';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target: starts the runs of the workspace's active workflows whose event trigger matches. */
export const handler = outboxHandler(async ({ envelope }) => {
  const started = await onEvent(direct, envelope);
  if (started > 0) log.info('workflows triggered', { started });
});
