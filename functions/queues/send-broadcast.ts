import { groupedConsumer } from '../../shared/queues';
import { broadcastGroup, handleBroadcastMessages } from '../../shared/broadcasts/worker';
import { broadcastQueue } from '../../shared/broadcasts/queue';
import { needsSecretBox } from '../../shared/secrets/box';

needsSecretBox();

/** SQS consumer: broadcast fan-out, and the sends to a batch's recipients of one broadcast together (partial batch failures). */
export const handler = groupedConsumer(broadcastQueue, broadcastGroup, handleBroadcastMessages, (m) => ({ broadcastId: m.broadcastId }));
