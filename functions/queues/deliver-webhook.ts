import { consumer } from '../../shared/queues';
import { handleDeliveryMessage } from '../../shared/webhooks/deliver';
import { webhookQueue } from '../../shared/webhooks/queue';
import { writeAttemptTallies } from '../../shared/webhooks/attempt-tallies';

/** SQS consumer: one attempt of each delivery that is due; a retry comes back when it is due (partial batch failures). */
export const handler = consumer(webhookQueue, handleDeliveryMessage, (m) => ({ deliveryId: m.deliveryId }), writeAttemptTallies);
