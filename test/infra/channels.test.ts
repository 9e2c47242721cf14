import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { CHANNEL_SECRETS_KEY } from '../../functions/wiring/channels';
import { grantsFor } from '../../infra/grants';
import { sharedSynth, type Synthesized } from './synth';

/** Channels and broadcasts as the real wiring deploys them. */
let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

const keyActions = (handler: string) => {
  const spec = [...wiring.routes, ...wiring.queues.map((q) => q.consumer), ...wiring.rules.map((r) => r.target)].find(
    (s) => s.handler === handler,
  )!;
  const queue = wiring.queues.find((q) => q.consumer === spec);
  return grantsFor(spec, queue ? 'queue' : 'http', queue?.name).flatMap((g) => ('key' in g.resource ? g.actions : []));
};

/** The KMS actions in every IAM policy of a stack, with the resources they name. */
const kmsStatements = (template: ReturnType<Synthesized['template']>) =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p: any) =>
    (p.Properties.PolicyDocument.Statement as any[]).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('kms:'))),
  );

describe('channel secrets', () => {
  it('are sealed with a customer-managed KMS key that rotates', () => {
    app
      .template(app.stacks.data)
      .hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true, Description: Match.stringLikeRegexp('channel account secrets') });
  });

  it('only the functions that seal or open secrets get the key, each with just the action it needs', () => {
    expect(keyActions('functions/http/channels/create-channel.ts')).toEqual(['kms:Encrypt']);
    expect(keyActions('functions/http/channels/update-channel.ts')).toEqual(['kms:Encrypt', 'kms:Decrypt']);
    expect(keyActions('functions/http/channels/receive-inbound.ts')).toEqual(['kms:Decrypt']);
    expect(keyActions('functions/queues/send-channel-message.ts')).toEqual(['kms:Decrypt']);
    expect(keyActions('functions/queues/send-broadcast.ts')).toEqual(['kms:Decrypt']);
    const holders = [
      ...wiring.routes,
      ...wiring.queues.map((q) => q.consumer),
      ...wiring.rules.map((r) => r.target),
      ...wiring.schedules.map((s) => s.target),
    ]
      .filter((s) => s.access.keys?.[CHANNEL_SECRETS_KEY])
      .map((s) => s.handler);
    expect(new Set(holders)).toEqual(
      new Set([
        'functions/http/channels/create-channel.ts',
        'functions/http/channels/update-channel.ts',
        'functions/http/channels/receive-inbound.ts',
        'functions/queues/send-channel-message.ts',
        'functions/queues/send-broadcast.ts',
      ]),
    );
  });

  it('deploys those grants as IAM statements on the key alone, and tells the function the key', () => {
    const channels = app.template(app.stacks.routes.find((s) => s.stackName.endsWith('-Api-Channels'))!);
    const statements = kmsStatements(channels);
    expect(statements.map((s) => [s.Action].flat()).sort()).toEqual(
      [['kms:Decrypt'], ['kms:Encrypt'], ['kms:Encrypt', 'kms:Decrypt']].sort(),
    );
    for (const s of statements) expect(JSON.stringify(s.Resource)).toMatch(/KeychannelsecretsKey|Keychannelsecrets/i);
    channels.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^POST /api/v1/channels: '),
      Environment: { Variables: Match.objectLike({ CHANNEL_SECRETS_KEY_ID: Match.anyValue() }) },
    });
    expect(kmsStatements(app.template(app.stacks.routes.find((s) => s.stackName.endsWith('-Api-Broadcasts'))!))).toEqual([]);
  });
});

describe('channel and broadcast queues', () => {
  it('hide a message longer than the send lease, which outlives the worker, and report partial batch failures', () => {
    for (const name of ['channel-sends', 'broadcast-sends']) {
      const q = wiring.queues.find((x) => x.name === name)!;
      expect(q.consumer.timeoutSeconds! * 1000).toBeLessThan(20_000);
      expect(20_000).toBeLessThan(q.visibilityTimeoutSeconds * 1000);
    }
    app
      .template(app.stacks.queues)
      .hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: 90, RedrivePolicy: Match.objectLike({ maxReceiveCount: 100 }) });
    app.template(app.stacks.workers).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('BroadcastSends') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('starts due broadcasts every minute and routes replies, and no other outbox event, to the reply dispatcher', () => {
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Scheduler::Schedule', {
      Description: 'Parley start-due-broadcasts, every 1 min',
      ScheduleExpression: 'rate(1 minute)',
    });
    workers.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley channel-dispatch',
      EventPattern: {
        source: ['parley.outbox'],
        'detail-type': ['DomainEvent'],
        detail: { dynamodb: { NewImage: { eventType: { S: ['inbox.message.sent'] } } } },
      },
    });
  });
});
