import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { FUNCTION_FAILURES_GRAPH } from './dashboard';

export interface AlarmOptions {
  description: string;
  /** Alarm when the metric is at or above this value. */
  threshold: number;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

const PERIOD = Duration.minutes(5);

/** Where function failures are counted: one metric per alarm, named after the stack that holds the alarm. */
export const FAILURES_NAMESPACE = 'Parley/FunctionFailures';

/**
 * Lambda's own end-of-invocation record (JSON log format) for an invocation that did not succeed: an
 * unhandled error, a timeout or running out of memory, exactly what the `Errors` metric counts.
 */
const FAILED_INVOCATION = FilterPattern.all(
  FilterPattern.stringValue('$.type', '=', 'platform.report'),
  FilterPattern.stringValue('$.record.status', '!=', 'success'),
);

/**
 * The alarms of one stack, all notifying the alarm topic. Missing data (no traffic) is never an alarm.
 * Each stack owns the alarms of its own resources, so removing a route or queue never needs a cross-stack edit.
 */
export class Alarms extends Construct {
  constructor(
    scope: Construct,
    id: string,
    private readonly topic: ITopic,
  ) {
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

  /**
   * Counts the failed invocations of one function into its group's failure metric, named after the stack that
   * alarms on it (a log metric filter costs nothing, and publishes nothing while nothing fails).
   */
  functionFailures(id: string, logGroup: ILogGroup, group: string): void {
    new MetricFilter(this, `${id}Failures`, {
      logGroup,
      filterPattern: FAILED_INVOCATION,
      metricNamespace: FAILURES_NAMESPACE,
      metricName: group,
      metricValue: '1',
    });
  }

  /** The one alarm on the failures of every function counted into this stack's group; the dashboard names the function. */
  failures(what: string): Alarm {
    const group = Stack.of(this).stackName;
    return this.add(
      'FunctionFailures',
      new Metric({ namespace: FAILURES_NAMESPACE, metricName: group, period: PERIOD, statistic: 'Sum' }),
      {
        description: `${what}: a function failed (unhandled error, timeout or out of memory). The "${FUNCTION_FAILURES_GRAPH}" graph of the stage's dashboard names it (docs/operations/alarms.md).`,
        threshold: 1,
      },
    );
  }
}
