import { dueBroadcasts } from '../../shared/data/broadcasts';
import { enqueueBroadcast } from '../../shared/broadcasts/queue';
import { scheduled } from '../../shared/observability/invocation';

/** Broadcasts started or woken per run; the rest wait for the next minute. */
const PER_RUN = 500;

/**
 * Every minute: a start message for each broadcast whose scheduled time has come, or whose fan-out has
 * not finished (a crash between `send` and its message). Starting is conditional on the broadcast's
 * state, so a broadcast that is also started by its own delayed message starts once.
 */
export const handler = scheduled(async (): Promise<{ started: number }> => {
  const due = await dueBroadcasts(new Date(), PER_RUN);
  await enqueueBroadcast(due.map(({ tenant, id }) => ({ kind: 'start', workspaceId: tenant, broadcastId: id })));
  return { started: due.length };
});
