import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log } from '../../shared/log';
import { addContext } from '../../shared/observability/context';
import { observed } from '../../shared/observability/invocation';
import { inRecordContext } from '../../shared/queues';
import { runStep } from '../../shared/workflows/runner';
import { deferStep, type StepMessage } from '../../shared/workflows/queue';

/**
 * SQS consumer with partial batch failures: each message runs one workflow step. A message that came
 * early is deferred by its visibility; one whose step threw comes back after the visibility timeout, and
 * after maxReceiveCount lands in the DLQ.
 */
export const handler = observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map((record) =>
      inRecordContext(record, {}, async () => {
        try {
          const message = JSON.parse(record.body) as StepMessage;
          addContext({ executionId: message.executionId, step: message.seq });
          const verdict = await runStep(message);
          if (verdict.ack) return undefined;
          await deferStep(record.receiptHandle, verdict.delayMs);
        } catch (error) {
          log.error('workflow step failed to run', { error });
        }
        return { itemIdentifier: record.messageId };
      }),
    ),
  );
  return { batchItemFailures: failures.filter((f) => f !== undefined) };
});
