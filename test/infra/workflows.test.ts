import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { CONSUME_ACTIONS, grantsFor, SEND_ACTIONS } from '../../infra/grants';
import { sharedSynth, type Synthesized } from './synth';

/** The workflow engine's infrastructure, as the real wiring deploys it. */
let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

const stepsQueue = () => wiring.queues.find((q) => q.name === 'workflow-steps')!;

describe('the workflow engine infrastructure', () => {
  it('runs steps from a queue that hides a message 6x as long as its worker runs and parks poison messages in a DLQ after 25 receives (an hour, not a throttling spell)', () => {
    app.template(app.stacks.queues).hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 150,
      MessageRetentionPeriod: 7 * 86_400,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkflowStepsDlq'), 'Arn'] }, maxReceiveCount: 25 },
    });
    expect(stepsQueue().consumer.timeoutSeconds! * 6).toBeLessThanOrEqual(stepsQueue().visibilityTimeoutSeconds);
    app.template(app.stacks.workers).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('WorkflowSteps') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('alarms on a message in the steps DLQ and on a step waiting 5 minutes past its time', () => {
    const queues = app.template(app.stacks.queues);
    queues.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 1,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkflowStepsDlq'), 'QueueName'] } }],
    });
    queues.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Threshold: 300,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkflowSteps(?!Dlq)'), 'QueueName'] } }],
    });
  });

  it('routes every outbox event to the trigger function, and runs the schedule and due-step sweeps every minute', () => {
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley workflow-trigger',
      EventPattern: { source: ['parley.outbox'], 'detail-type': ['DomainEvent'] },
    });
    for (const name of ['run-workflow-schedules', 'sweep-workflow-steps']) {
      workers.hasResourceProperties('AWS::Scheduler::Schedule', {
        Description: `Parley ${name}, every 1 min`,
        ScheduleExpression: 'rate(1 minute)',
      });
    }
  });

  it('lets the step worker send to and consume only its own queue, and lets only the routes that start runs send to it', () => {
    const spec = stepsQueue();
    const queueGrants = (g: ReturnType<typeof grantsFor>) =>
      g.filter((x) => 'queue' in x.resource).map((x) => [(x.resource as { queue: string }).queue, [...x.actions]]);
    expect(queueGrants(grantsFor(spec.consumer, 'queue', spec.name))).toEqual([
      ['workflow-steps', [...SEND_ACTIONS]],
      ['workflow-steps', [...CONSUME_ACTIONS]],
    ]);
    const senders = wiring.routes.filter((r) => r.access.queues?.includes(spec.name)).map((r) => `${r.method} ${r.path}`);
    expect(senders.sort()).toEqual(['POST /api/v1/workflows/executions/{id}/retry', 'POST /api/v1/workflows/{id}/trigger']);
  });
});
