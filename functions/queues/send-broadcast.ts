import { consumer } from '../../shared/queues';
import { handleBroadcastMessage } from '../../shared/broadcasts/worker';
import type { BroadcastMessage } from '../../shared/broadcasts/queue';
import { needsSecretBox } from '../../shared/secrets/box';

needsSecretBox();

/** SQS consumer: broadcast fan-out and per-recipient sends (partial batch failures). */
export const handler = consumer<BroadcastMessage>('BROADCAST_QUEUE_URL', 'broadcast', handleBroadcastMessage, (m) => ({
  broadcastId: m.broadcastId,
  recipientId: m.kind === 'recipient' ? m.customerId : undefined,
}));
