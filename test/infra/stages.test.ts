import { App, Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkQueueSpec } from '../../infra/stacks/queues-stack';
import { wiring } from '../../functions/wiring';
import { stageFrom } from '../../infra/stage';
import { DataStack } from '../../infra/stacks/data-stack';
import { tableSchema } from '../../shared/data/table';
import { fullWiring, prodDomain, prodStage, synth, type Synthesized } from './synth';

describe('the prod stage', () => {
  let prod: Synthesized;
  beforeAll(() => {
    prod = synth({ wiring: fullWiring, ...prodStage });
  }, 300_000);

  it('protects the table from deletion and retains it (and its logs) when the stack goes', () => {
    prod.template(prod.stacks.data).hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
    prod.template(prod.stacks.api).hasResource('AWS::Logs::LogGroup', { DeletionPolicy: 'Retain', Properties: { RetentionInDays: 90 } });
  });

  it('names its stacks, bus and API after the stage', () => {
    expect(prod.all.map((s) => s.stackName)).toEqual([
      'Parley-prod-Observability',
      'Parley-prod-Data',
      'Parley-prod-Events',
      'Parley-prod-Queues',
      'Parley-prod-Api',
      'Parley-prod-Workers',
      'Parley-prod-Site',
      'Parley-prod-Edge',
      'Parley-prod-Api-Fixtures',
    ]);
    prod.template(prod.stacks.events).hasResourceProperties('AWS::Events::EventBus', { Name: 'parley-prod' });
    prod.template(prod.stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'parley-prod' });
  });

  it('maps the API to the custom domain and says where to point DNS', () => {
    const api = prod.template(prod.stacks.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: prodDomain.certificateArn, EndpointType: 'REGIONAL' })],
    });
    api.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      DomainName: { Ref: Match.stringLikeRegexp('^Domain') },
      Stage: '$default',
    });
    api.hasOutput('DomainTarget', {});
  });

  it('answers CORS preflights only for the configured origins', () => {
    prod.template(prod.stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['https://app.example.com'],
        AllowHeaders: Match.arrayWith(['authorization', 'x-workspace-id']),
      }),
    });
  });

  it('throttles at production rates and e-mails alarms', () => {
    prod.template(prod.stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 },
    });
    prod
      .template(prod.stacks.observability)
      .hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });
});

describe('the dev stage', () => {
  it('can be torn down: no deletion protection, resources destroyed with the stack', () => {
    const dev = synth({ wiring: fullWiring });
    dev.template(dev.stacks.data).hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    dev.template(dev.stacks.observability).resourceCountIs('AWS::SNS::Subscription', 0);
    dev.template(dev.stacks.api).resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });
});

describe('configuration mistakes fail the synth', () => {
  const context = (values: Record<string, string>) => new App({ context: values }).node;

  it('rejects an unknown stage and a domain without its certificate', () => {
    expect(() => stageFrom(context({ stage: 'staging' }))).toThrow(/dev or prod/);
    expect(() => stageFrom(context({ domainName: 'api.example.com' }))).toThrow(/go together/);
    expect(stageFrom(context({})).name).toBe('dev');
  });

  it('deploys the table indexes named by tableIndexes (all by default), so an upgrade adds one index per deploy, and refuses a name the table has not', () => {
    const indexesOf = (values: Record<string, string>) => {
      const app = new App({ context: values });
      const data = new DataStack(app, 'Data', { stage: stageFrom(app.node), keys: [], buckets: [] });
      const [table] = Object.values(Template.fromStack(data).findResources('AWS::DynamoDB::Table'));
      return (table!.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((i) => i.IndexName);
    };
    expect(indexesOf({})).toEqual(tableSchema.indexes.map((i) => i.name));
    expect(indexesOf({ tableIndexes: 'gsi1, gsi2,gsi3' })).toEqual(['gsi1', 'gsi2', 'gsi3']);
    expect(() => stageFrom(context({ tableIndexes: 'gsi1,gsi9' }))).toThrow(/names no index of the table: gsi9/);
  });

  it('rejects a queue whose visibility timeout is under 6x its consumer timeout, whose receives throttling alone could exhaust within an hour, that keeps messages under 4 days or within a week of its DLQ, or whose consumer settings Lambda refuses', () => {
    const [queue] = fullWiring.queues;
    const dlq = Duration.days(14);
    expect(() => checkQueueSpec({ ...queue!, visibilityTimeoutSeconds: 179 }, dlq)).toThrow(
      /must be at least 6x its consumer's timeout 30s/,
    );
    expect(() =>
      checkQueueSpec({ ...queue!, consumer: { ...queue!.consumer, timeoutSeconds: undefined }, visibilityTimeoutSeconds: 30 }, dlq),
    ).toThrow(/30s/);
    expect(() => checkQueueSpec({ ...queue!, dlq: { ...queue!.dlq, maxReceiveCount: 19 } }, dlq)).toThrow(
      /maxReceiveCount 19 x visibility 180s must cover 3600s/,
    );
    expect(() => checkQueueSpec({ ...queue!, retentionDays: 3 }, dlq)).toThrow(/at least 4 days/);
    expect(() => checkQueueSpec({ ...queue!, retentionDays: 8 }, dlq)).toThrow(/at least 7 days shorter than its DLQ's 14/);
    expect(() => checkQueueSpec({ ...queue!, consumer: { ...queue!.consumer, batchSize: 11 } }, dlq)).toThrow(/batch size must be 1 to 10/);
    expect(() => checkQueueSpec({ ...queue!, consumer: { ...queue!.consumer, maxConcurrency: 1 } }, dlq)).toThrow(
      /maximum concurrency must be 2 to 1000/,
    );
    expect(() => checkQueueSpec(queue!, dlq)).not.toThrow();
  });

  it('holds every queue of the real wiring to the same rules', () => {
    for (const queue of wiring.queues) expect(() => checkQueueSpec(queue, Duration.days(14)), queue.name).not.toThrow();
  });

  it('rejects a function that names a queue the wiring does not declare', () => {
    const route = { ...fullWiring.routes[0]!, access: { table: 'read' as const, queues: ['nowhere'] } };
    expect(() => synth({ wiring: { ...fullWiring, routes: [route] } })).toThrow(/uses queue "nowhere"/);
  });
});
