import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmOptions {
  description: string;
  /** Alarm when the metric is at or above this value. */
  threshold: number;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

const PERIOD = Duration.minutes(5);

/**
 * The alarms of one stack, all notifying the alarm topic. Missing data (no traffic) is never an alarm.
 * Each stack owns the alarms of its own resources, so removing a route or queue never needs a cross-stack edit.
 */
export class Alarms extends Construct {
  constructor(scope: Construct, id: string, private readonly topic: ITopic) {
    super(scope, id);
  }

  add(id: string, metric: IMetric, opts: AlarmOptions): Alarm {
    const alarm = new Alarm(this, id, {
      metric,
      alarmDescription: opts.description,
      threshold: opts.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: opts.evaluationPeriods ?? 1,
      datapointsToAlarm: opts.datapointsToAlarm,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    return alarm;
  }

  /** Anything in a dead-letter queue needs a human (or a redrive). */
  deadLetters(id: string, dlq: IQueue, what: string): Alarm {
    return this.add(id, dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }), {
      description: `${what}: messages are waiting in the dead-letter queue; inspect and redrive them (docs/operations/redrive.md).`,
      threshold: 1,
    });
  }

  /** Unhandled errors (crashes, timeouts) and throttles of one function. */
  functionHealth(id: string, fn: IFunction, what: string): void {
    this.add(`${id}Errors`, fn.metricErrors({ period: PERIOD, statistic: 'Sum' }), {
      description: `${what}: the function failed (unhandled error or timeout).`,
      threshold: 1,
    });
    this.add(`${id}Throttles`, fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }), {
      description: `${what}: invocations were throttled (account or reserved concurrency exhausted).`,
      threshold: 1,
    });
  }
}
