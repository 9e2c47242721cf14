import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log } from '../../shared/log';
import { addContext } from '../../shared/observability/context';
import { observed } from '../../shared/observability/invocation';
import { inRecordContext } from '../../shared/queues';
import { handleDeliveryMessage } from '../../shared/webhooks/deliver';
import { deferMessage, type DeliveryMessage } from '../../shared/webhooks/queue';

/**
 * SQS consumer with partial batch failures. A message whose delivery must be retried is reported as
 * failed after its visibility is set to the retry delay, so SQS itself brings it back on schedule.
 */
export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map((record) =>
      inRecordContext(record, {}, async () => {
        try {
          const message = JSON.parse(record.body) as DeliveryMessage;
          addContext({ deliveryId: message.deliveryId });
          const verdict = await handleDeliveryMessage(message, record.messageId);
          if (verdict.ack) return undefined;
          await deferMessage(record.receiptHandle, verdict.delayMs);
        } catch (error) {
          log.error('webhook delivery message failed', { error });
        }
        return { itemIdentifier: record.messageId };
      }),
    ),
  );
  return { batchItemFailures: failures.filter((f) => f !== undefined) };
});
