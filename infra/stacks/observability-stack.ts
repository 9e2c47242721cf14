import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { CfnSamplingRule } from 'aws-cdk-lib/aws-xray';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { Alarms } from '../constructs/alarms';
import { FUNCTION_FAILURES_GRAPH, ParleyDashboard } from '../constructs/dashboard';
import type { Stage } from '../stage';

/**
 * X-Ray sampling for the functions that run most and tell least: the API's read routes and the schedules
 * (which mostly find nothing to do). Lambda's own default traces 1 request a second and 5 % of the rest; these
 * trace 1 % with no reservoir. X-Ray matches a Lambda trace on its function name, which CloudFormation builds
 * from the stack name and the construct id (`Parley-dev-Api-Inbox-GetInboxConversations…`).
 */
const samplingRules = (stage: string) => [
  { ruleName: `parley-${stage}-reads`, priority: 100, serviceName: `Parley-${stage}-Api-*-Get*`, fixedRate: 0.01 },
  { ruleName: `parley-${stage}-schedules`, priority: 101, serviceName: `Parley-${stage}-Workers-Schedule*`, fixedRate: 0.01 },
];

/**
 * The alarm topic every stack's alarms notify (`-c alarmEmail=…` subscribes an address to it), the stage's
 * dashboard, the throttle alarm and the X-Ray sampling rules.
 */
export class ObservabilityStack extends Stack {
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: StackProps & { stage: Stage }) {
    super(scope, id, props);
    const { stage } = props;
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `Parley ${stage.name} alarms`, enforceSSL: true });
    if (stage.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(stage.alarmEmail));
    new ParleyDashboard(this, 'Operations', { stage: stage.name });
    // Throttling is the region's concurrency running out, shared by every function: one alarm on Lambda's
    // region-wide count, and the dashboard names the functions.
    new Alarms(this, 'Alarms', this.alarmTopic).add(
      'Throttles',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', period: Duration.minutes(5), statistic: 'Sum' }),
      {
        description: `Lambda (the whole region): invocations were throttled, account or reserved concurrency exhausted. The "${FUNCTION_FAILURES_GRAPH}" graph of the stage's dashboard names the functions.`,
        threshold: 1,
      },
    );
    for (const rule of samplingRules(stage.name)) {
      new CfnSamplingRule(this, `Sampling-${rule.ruleName}`, {
        samplingRule: {
          ...rule,
          reservoirSize: 0,
          serviceType: '*',
          host: '*',
          httpMethod: '*',
          urlPath: '*',
          resourceArn: '*',
          version: 1,
        },
      });
    }
    NagSuppressions.addResourceSuppressions(this.alarmTopic, [
      {
        id: 'AwsSolutions-SNS2',
        reason: 'Carries only alarm state changes (no customer data); CloudWatch cannot publish to a topic under the AWS-managed SNS key.',
      },
    ]);
  }
}
