import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueSpec } from '../../functions/wiring/types';

export interface SqsLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * The fauxqs SQS emulator, in-process, on loopback. Imported here, not with the module: a test process whose
 * stacks use its worker slot's emulator never loads it (about 0.5 CPU s).
 */
export const startSqsLocal = async (port = 0): Promise<SqsLocal> => {
  const { buildApp } = await import('fauxqs');
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

/** Creates a wiring queue and its DLQ with the same attributes the CDK stack sets, their names after `prefix`. */
export const ensureQueue = async (sqs: SQSClient, spec: QueueSpec, prefix = ''): Promise<QueueUrls> => {
  const retention = String(14 * 24 * 3600);
  const dlq = await create(sqs, `${prefix}${spec.dlq.name}`, { MessageRetentionPeriod: retention });
  const queue = await create(sqs, `${prefix}${spec.name}`, {
    VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(spec.retentionDays * 24 * 3600),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: spec.dlq.maxReceiveCount }),
  });
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url };
};
