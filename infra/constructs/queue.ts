import type { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/** Every queue: encrypted at rest (SQS-managed keys) and reachable only over TLS. */
export const secureQueue = (scope: Construct, id: string, props: QueueProps): Queue =>
  new Queue(scope, id, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, ...props });

/** A dead-letter queue for a pipe, rule, schedule or async invocation: keeps failures for the redrive window. */
export const deadLetterQueue = (scope: Construct, id: string, retention: Duration, parkedBy: string): Queue => {
  const queue = secureQueue(scope, id, { retentionPeriod: retention });
  NagSuppressions.addResourceSuppressions(queue, [
    { id: 'AwsSolutions-SQS3', reason: `This queue is the dead-letter queue of ${parkedBy}; a DLQ of a DLQ would only hide failures.` },
  ]);
  return queue;
};
