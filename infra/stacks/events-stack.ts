import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { EVENT_ITEM_TYPE } from '../../shared/data/table';
import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../shared/events/from-bus';
import { Alarms } from '../constructs/alarms';
import { deadLetterQueue } from '../constructs/queue';
import type { Stage } from '../stage';

/** Only inserted outbox items leave the table; every other write stays private. */
export const OUTBOX_FILTER = { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: [EVENT_ITEM_TYPE] } } } };

export interface EventsStackProps extends StackProps {
  stage: Stage;
  table: ITable;
  alarmTopic: ITopic;
}

/**
 * The transactional outbox's way out: table stream → EventBridge Pipe (event items only, untransformed, so
 * consumers get the stream record as `detail`) → the custom bus that the wiring's rules listen on.
 */
export class EventsStack extends Stack {
  readonly bus: EventBus;

  constructor(scope: Construct, id: string, props: EventsStackProps) {
    super(scope, id, props);
    const { stage, table } = props;
    const streamArn = table.tableStreamArn;
    if (!streamArn) throw new Error('the table must have a stream for the outbox pipe');

    this.bus = new EventBus(this, 'Bus', { eventBusName: `parley-${stage.name}` });
    const dlq = deadLetterQueue(this, 'PipeDlq', stage.dlqRetention, 'the outbox pipe');
    const logs = new LogGroup(this, 'PipeLogs', { retention: stage.logRetention, removalPolicy: stage.removalPolicy });

    const role = new Role(this, 'PipeRole', { assumedBy: new ServicePrincipal('pipes.amazonaws.com') });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        resources: [streamArn],
      }),
    );
    this.bus.grantPutEventsTo(role);
    dlq.grantSendMessages(role);
    logs.grantWrite(role);

    const pipe = new CfnPipe(this, 'OutboxPipe', {
      description: 'Outbox event items from the table stream to the Parley bus',
      roleArn: role.roleArn,
      source: streamArn,
      sourceParameters: {
        dynamoDbStreamParameters: {
          startingPosition: 'TRIM_HORIZON',
          batchSize: 10,
          maximumBatchingWindowInSeconds: 0,
          maximumRetryAttempts: 10,
          maximumRecordAgeInSeconds: 86_400,
          deadLetterConfig: { arn: dlq.queueArn },
        },
        filterCriteria: { filters: [{ pattern: JSON.stringify(OUTBOX_FILTER) }] },
      },
      target: this.bus.eventBusArn,
      targetParameters: { eventBridgeEventBusParameters: { source: OUTBOX_SOURCE, detailType: OUTBOX_DETAIL_TYPE } },
      logConfiguration: { level: 'ERROR', cloudwatchLogsLogDestination: { logGroupArn: logs.logGroupArn } },
    });
    pipe.node.addDependency(role);

    const alarms = new Alarms(this, 'Alarms', props.alarmTopic);
    alarms.deadLetters('PipeDeadLetters', dlq, 'Outbox pipe');
    alarms.add(
      'PipeFailures',
      new Metric({
        namespace: 'AWS/EventBridge/Pipes',
        metricName: 'ExecutionFailed',
        dimensionsMap: { PipeName: pipe.ref },
        period: Duration.minutes(5),
        statistic: 'Sum',
      }),
      { description: 'Outbox pipe: batches failed to reach the bus and are being retried (events are delayed).', threshold: 1 },
    );
  }
}
