import { Stack, type StackProps } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ParleyDashboard } from '../constructs/dashboard';
import type { Stage } from './stage';

/** The alarm topic every stack's alarms notify (`-c alarmEmail=…` subscribes an address to it), and the stage's dashboard. */
export class ObservabilityStack extends Stack {
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: StackProps & { stage: Stage }) {
    super(scope, id, props);
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `Parley ${props.stage.name} alarms`, enforceSSL: true });
    if (props.stage.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.stage.alarmEmail));
    new ParleyDashboard(this, 'Operations', { stage: props.stage.name });
    NagSuppressions.addResourceSuppressions(this.alarmTopic, [
      {
        id: 'AwsSolutions-SNS2',
        reason: 'Carries only alarm state changes (no customer data); CloudWatch cannot publish to a topic under the AWS-managed SNS key.',
      },
    ]);
  }
}
