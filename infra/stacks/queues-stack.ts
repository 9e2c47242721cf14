import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { Alarms } from '../constructs/alarms';
import type { DeployedQueue } from '../constructs/parley-function';
import { sizing } from '../../functions/wiring/sizing';
import { secureQueue } from '../constructs/queue';
import type { QueueSpec } from '../../functions/wiring/types';
import type { Stage } from '../stage';

const MIN_RETENTION_DAYS = 4;
/**
 * AWS's advice for a queue feeding a Lambda event source: a visibility timeout of at least 6× the function
 * timeout, so a batch whose invocation is throttled and retried is not received again meanwhile.
 */
const VISIBILITY_PER_TIMEOUT = 6;
/**
 * Each receive of a throttled batch counts towards maxReceiveCount, at most one per visibility timeout. A
 * queue's receives must outlast this much throttling, well past its age alarm, before a message is
 * dead-lettered unprocessed.
 */
const MIN_THROTTLE_SECONDS = 3600;
/**
 * A dead-lettered message keeps its original enqueue time, so it expires from the DLQ once the DLQ's retention
 * has passed since it was first sent. The source's retention stays this much shorter than the DLQ's, so every
 * message has at least this long for a redrive.
 */
const MIN_REDRIVE_DAYS = 7;
/** Alarm when the oldest waiting message is older than this, unless the queue spec says otherwise. */
const DEFAULT_AGE_ALARM_SECONDS = 900;

/** Refuses specs that would lose messages, deliver them twice in parallel or dead-letter them for throttling alone. */
export const checkQueueSpec = (spec: QueueSpec, dlqRetention: Duration): void => {
  const consumerTimeout = sizing(spec.consumer, 'queue').timeoutSeconds;
  const visibility = spec.visibilityTimeoutSeconds;
  if (visibility < VISIBILITY_PER_TIMEOUT * consumerTimeout) {
    throw new Error(
      `queue ${spec.name}: visibility timeout ${visibility}s must be at least ${VISIBILITY_PER_TIMEOUT}x its consumer's timeout ${consumerTimeout}s`,
    );
  }
  if (spec.dlq.maxReceiveCount * visibility < MIN_THROTTLE_SECONDS) {
    throw new Error(
      `queue ${spec.name}: maxReceiveCount ${spec.dlq.maxReceiveCount} x visibility ${visibility}s must cover ${MIN_THROTTLE_SECONDS}s of throttled receives`,
    );
  }
  if (spec.retentionDays < MIN_RETENTION_DAYS) throw new Error(`queue ${spec.name}: retention must be at least ${MIN_RETENTION_DAYS} days`);
  if (spec.retentionDays + MIN_REDRIVE_DAYS > dlqRetention.toDays()) {
    throw new Error(
      `queue ${spec.name}: retention ${spec.retentionDays} days must be at least ${MIN_REDRIVE_DAYS} days shorter than its DLQ's ${dlqRetention.toDays()}`,
    );
  }
  const { batchSize, maxConcurrency } = spec.consumer;
  // Lambda's limits for an SQS event source without a batching window.
  if (batchSize < 1 || batchSize > 10) throw new Error(`queue ${spec.name}: consumer batch size must be 1 to 10`);
  if (maxConcurrency < 2 || maxConcurrency > 1000) throw new Error(`queue ${spec.name}: consumer maximum concurrency must be 2 to 1000`);
};

export interface QueuesStackProps extends StackProps {
  stage: Stage;
  queues: readonly QueueSpec[];
  alarmTopic: ITopic;
}

/** Every queue the wiring declares, with its dead-letter queue, redrive policy and alarms. */
export class QueuesStack extends Stack {
  readonly queues = new Map<string, DeployedQueue>();

  constructor(scope: Construct, id: string, props: QueuesStackProps) {
    super(scope, id, props);
    const alarms = new Alarms(this, 'Alarms', props.alarmTopic);
    for (const spec of props.queues) {
      checkQueueSpec(spec, props.stage.dlqRetention);
      const name = pascal(spec.name);
      const dlq = secureQueue(this, `${name}Dlq`, { retentionPeriod: props.stage.dlqRetention });
      const queue = secureQueue(this, name, {
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(spec.retentionDays),
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.dlq.maxReceiveCount },
      });
      this.queues.set(spec.name, { spec, queue, dlq });
      alarms.deadLetters(`${name}DeadLetters`, dlq, `Queue ${spec.name}`);
      const ageSeconds = spec.ageAlarmSeconds ?? DEFAULT_AGE_ALARM_SECONDS;
      alarms.add(`${name}Age`, queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }), {
        description: `Queue ${spec.name}: the oldest message has waited ${ageSeconds}s or more; the consumer is behind or failing.`,
        threshold: ageSeconds,
      });
      new CfnOutput(this, `${name}DlqUrl`, { value: dlq.queueUrl, description: `Dead-letter queue of ${spec.name}` });
      new CfnOutput(this, `${name}Url`, { value: queue.queueUrl, description: `Queue ${spec.name}` });
    }
  }
}

/** `webhook-deliveries` → `WebhookDeliveries`: stable construct ids from wiring names. */
export const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
