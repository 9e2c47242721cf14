import { startDueBroadcasts } from '../../shared/broadcasts/service';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: starts each broadcast whose scheduled time has come, or wakes one whose fan-out did not finish. */
export const handler = scheduled(async (): Promise<{ started: number }> => ({ started: await startDueBroadcasts(direct, new Date()) }));
