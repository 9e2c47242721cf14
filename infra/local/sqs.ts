import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import type { QueueSpec } from '../../functions/wiring/types';

export interface SqsLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** The fauxqs SQS emulator, in-process, on loopback. */
export const startSqsLocal = async (port = 0): Promise<SqsLocal> => {
  const app = buildApp({ logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const { port: bound } = app.server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${bound}`, stop: () => app.close() };
};

export interface QueueUrls {
  url: string;
  arn: string;
  dlqUrl: string;
}

const create = async (sqs: SQSClient, name: string, attributes: Record<string, string>) => {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: Attributes!.QueueArn! };
};

/** Creates a wiring queue and its DLQ with the same attributes the CDK stack sets. */
export const ensureQueue = async (sqs: SQSClient, spec: QueueSpec): Promise<QueueUrls> => {
  const retention = String(14 * 24 * 3600);
  const dlq = await create(sqs, spec.dlq.name, { MessageRetentionPeriod: retention });
  const queue = await create(sqs, spec.name, {
    VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(spec.retentionDays * 24 * 3600),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: spec.dlq.maxReceiveCount }),
  });
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url };
};
