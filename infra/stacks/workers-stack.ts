import { Duration, Stack } from 'aws-cdk-lib';
import { EventBus, Rule, type EventPattern as CdkEventPattern, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke, type ScheduleTargetBaseProps } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Construct } from 'constructs';
import { ParleyFunction } from '../constructs/parley-function';
import { deadLetterQueue } from '../constructs/queue';
import type { EventPattern, EventRule, ScheduleSpec } from '../../functions/wiring/types';
import { stackPlatform, type FunctionStackProps } from './function-stack';
import { pascal } from './queues-stack';

/** EventBridge delivery to a rule target is retried for up to a day before it lands in the rule's DLQ. */
const RULE_RETRY = { retryAttempts: 185, maxEventAge: Duration.hours(24) };
const SCHEDULE_RETRY = { retryAttempts: 3, maxEventAge: Duration.hours(1) };

/** Scheduler's invoke grant, narrowed to the function itself (CDK's also covers every version and alias: `arn:*`). */
class InvokeFunction extends LambdaInvoke {
  constructor(
    private readonly fn: IFunction,
    props: ScheduleTargetBaseProps,
  ) {
    super(fn, props);
  }

  protected override addTargetActionToRole(role: IRole): void {
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.fn.functionArn] }));
  }
}

const cdkPattern = (pattern: EventPattern): CdkEventPattern => ({
  source: [...pattern.source],
  ...(pattern['detail-type'] ? { detailType: [...pattern['detail-type']] } : {}),
  ...(pattern.detail ? { detail: pattern.detail } : {}),
});

export interface WorkersStackProps extends FunctionStackProps {
  rules: readonly EventRule[];
  schedules: readonly ScheduleSpec[];
  bus: IEventBus;
}

/**
 * Everything that runs without an HTTP request: one function per queue consumer (SQS event source with
 * partial batch responses), per bus rule and per schedule, every failure path ending in a dead-letter queue.
 */
export class WorkersStack extends Stack {
  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const platform = stackPlatform(this, props);
    const { stage, alarms } = platform;
    alarms.failures('Workers (queue consumers, rule targets, schedules)');

    for (const { spec, queue } of platform.queues.values()) {
      const { batchSize, maxConcurrency } = spec.consumer;
      const fn = new ParleyFunction(this, `Consumer${pascal(spec.name)}`, {
        spec: spec.consumer,
        kind: 'queue',
        title: `Consumer of queue ${spec.name}`,
        platform,
      });
      fn.addEventSource(new SqsEventSource(queue, { batchSize, maxConcurrency, reportBatchItemFailures: true }));
    }

    // One dead-letter queue for every rule and schedule: each message names its rule or schedule and target
    // (attributes, or the failure record), and one alarm watches them all.
    const dlq = deadLetterQueue(this, 'WorkersDlq', stage.dlqRetention, 'every bus rule and schedule (undeliverable and failed events)');
    if (props.rules.length + props.schedules.length) alarms.deadLetters('WorkersDeadLetters', dlq, 'Bus rules and schedules');

    for (const rule of props.rules) {
      const name = `Rule${pascal(rule.name)}`;
      const fn = new ParleyFunction(this, name, {
        spec: rule.target,
        kind: 'event',
        title: `Bus rule ${rule.name}`,
        platform,
        asyncFailures: dlq,
      });
      // S3 notifies the account's default bus, of that bucket's objects only.
      const bucket = rule.bucket && platform.buckets.get(rule.bucket);
      if (rule.bucket && !bucket) throw new Error(`rule ${rule.name} names bucket ${rule.bucket}, which the wiring does not declare`);
      new Rule(this, `${name}Rule`, {
        eventBus: bucket ? EventBus.fromEventBusName(this, `${name}DefaultBus`, 'default') : props.bus,
        description: `Parley ${rule.name}`,
        eventPattern: cdkPattern(
          bucket ? { ...rule.pattern, detail: { ...rule.pattern.detail, bucket: { name: [bucket.bucket.bucketName] } } } : rule.pattern,
        ),
        targets: [new LambdaFunction(fn, { deadLetterQueue: dlq, ...RULE_RETRY })],
      });
    }

    for (const schedule of props.schedules) {
      const name = `Schedule${pascal(schedule.name)}`;
      const fn = new ParleyFunction(this, name, {
        spec: schedule.target,
        kind: 'schedule',
        title: `Schedule ${schedule.name}`,
        platform,
        asyncFailures: dlq,
      });
      new Schedule(this, `${name}Timer`, {
        description: `Parley ${schedule.name}, every ${schedule.everyMinutes} min`,
        schedule: ScheduleExpression.rate(Duration.minutes(schedule.everyMinutes)),
        target: new InvokeFunction(fn, { deadLetterQueue: dlq, ...SCHEDULE_RETRY }),
      });
    }
  }
}
