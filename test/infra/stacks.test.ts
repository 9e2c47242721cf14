import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_NAMESPACE } from '../../infra/constructs/alarms';
import { FUNCTION_FAILURES_GRAPH } from '../../infra/constructs/dashboard';
import { FORBIDDEN_ENV, type ParleyFunction } from '../../infra/constructs/parley-function';
import { FAULT_ENV } from '../../infra/local/faults';
import { wiring } from '../../functions/wiring';
import { grantsFor } from '../../infra/grants';
import { OUTBOX_FILTER } from '../../infra/stacks/events-stack';
import { tableSchema } from '../../shared/data/table';
import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../shared/events/from-bus';
import { fullWiring, sharedSynth, type Synthesized } from './synth';

let app: Synthesized;
beforeAll(() => {
  app = sharedSynth(fullWiring);
}, 300_000);

type Resource = { Type: string; Properties: Record<string, unknown> };
/**
 * Resources of the stacks that run Parley's own code. The Site stack's one function and role are CDK's
 * BucketDeployment custom resource (test/infra/site.test.ts checks that stack).
 */
const resources = (type: string): Resource[] =>
  app.all
    .filter((stack) => stack !== app.stacks.site)
    .flatMap((stack) => Object.values(app.template(stack).findResources(type)) as Resource[]);

describe('the table', () => {
  it('is on-demand with point-in-time recovery, new-and-old-image streams, TTL and the data layer GSIs', () => {
    app.template(app.stacks.data).hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: tableSchema.indexes.map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: index.projection },
        }),
      ),
    });
  });

  it('projects keys only into gsi3 and gsi4 (conversation lists), so an update that keeps their keys writes no entry', () => {
    const [table] = Object.values(app.template(app.stacks.data).findResources('AWS::DynamoDB::Table'));
    const projections = Object.fromEntries(
      (table!.Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: { ProjectionType: string } }[]).map((i) => [
        i.IndexName,
        i.Projection.ProjectionType,
      ]),
    );
    expect(projections).toEqual({ gsi1: 'ALL', gsi2: 'ALL', gsi3: 'KEYS_ONLY', gsi4: 'KEYS_ONLY' });
  });

  it('exports its name for the CLI', () => {
    app.template(app.stacks.data).hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^Table') } });
  });
});

describe('the outbox pipe', () => {
  it('forwards only inserted event items from the table stream to the bus, untransformed, as parley.outbox DomainEvent', () => {
    const pipe = app.template(app.stacks.events);
    pipe.resourceCountIs('AWS::Pipes::Pipe', 1);
    pipe.hasResourceProperties('AWS::Pipes::Pipe', {
      Source: { 'Fn::ImportValue': Match.stringLikeRegexp('StreamArn') },
      SourceParameters: {
        DynamoDBStreamParameters: Match.objectLike({
          StartingPosition: 'TRIM_HORIZON',
          MaximumRetryAttempts: Match.anyValue(),
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^PipeDlq'), 'Arn'] } },
        }),
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify(OUTBOX_FILTER) }] },
      },
      Target: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Bus'), 'Arn'] },
      TargetParameters: { EventBridgeEventBusParameters: { Source: OUTBOX_SOURCE, DetailType: OUTBOX_DETAIL_TYPE } },
    });
    expect(JSON.parse(JSON.stringify(OUTBOX_FILTER))).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { type: { S: ['EVENT'] } } },
    });
    const [props] = Object.values(pipe.findResources('AWS::Pipes::Pipe')).map((r) => r.Properties as Record<string, unknown>);
    expect(props!.TargetParameters).not.toHaveProperty('InputTemplate');
    expect(props).not.toHaveProperty('Enrichment');
  });

  it('has a role that can only read the stream, put on the bus, park failures and write its log', () => {
    app.template(app.stacks.events).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
            Resource: { 'Fn::ImportValue': Match.stringLikeRegexp('StreamArn') },
          }),
          Match.objectLike({ Action: 'events:PutEvents', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Bus'), 'Arn'] } }),
        ]),
      },
    });
  });
});

describe('the queues', () => {
  it('keep messages at least 4 days and a week less than their DLQ, hide them 6x as long as the consumer runs and redrive to a DLQ', () => {
    const queues = app.template(app.stacks.queues);
    queues.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 180,
      MessageRetentionPeriod: 7 * 86_400,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^DeliveriesDlq'), 'Arn'] }, maxReceiveCount: 20 },
      SqsManagedSseEnabled: true,
    });
    queues.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 86_400, RedrivePolicy: Match.absent() });
    for (const queue of resources('AWS::SQS::Queue')) {
      expect(queue.Properties.MessageRetentionPeriod ?? 4 * 86_400).toBeGreaterThanOrEqual(4 * 86_400);
    }
  });

  it('are consumed by an event source mapping with partial batch responses and a concurrency cap', () => {
    app.template(app.stacks.workers).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('Deliveries') },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 20 },
    });
  });

  it('only accept TLS', () => {
    app.template(app.stacks.queues).hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });
});

describe('rules and schedules', () => {
  it('route bus events to their target with retries and a dead-letter queue', () => {
    app.template(app.stacks.workers).hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { 'Fn::ImportValue': Match.stringLikeRegexp('Bus') },
      EventPattern: { source: [OUTBOX_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE], detail: { eventName: ['INSERT'] } },
      Targets: [
        Match.objectLike({
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkersDlq'), 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
        }),
      ],
    });
  });

  it('park events the target function failed on after Lambda retries in the same DLQ', () => {
    app.template(app.stacks.workers).hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkersDlq'), 'Arn'] } } },
    });
  });

  it('run timers on EventBridge Scheduler at the declared rate with a DLQ', () => {
    app.template(app.stacks.workers).hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      Target: Match.objectLike({
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkersDlq'), 'Arn'] } },
        RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 3 }),
      }),
    });
  });
});

describe('the HTTP API', () => {
  it('logs every request as JSON without headers and throttles by default', () => {
    const api = app.template(app.stacks.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AccessLogs'), 'Arn'] },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    const [stage] = Object.values(api.findResources('AWS::ApiGatewayV2::Stage'));
    expect(JSON.stringify(stage)).not.toMatch(/authorization|header/i);
  });

  it('has CORS off unless configured and publishes its URL', () => {
    const api = app.template(app.stacks.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', CorsConfiguration: Match.absent() });
    api.hasOutput('ApiUrl', {});
  });
});

describe('every function', () => {
  it('is Node 22 on arm64 with JSON logs in its own log group, X-Ray tracing and source maps', () => {
    const fns = resources('AWS::Lambda::Function');
    expect(fns).toHaveLength(app.functions().length);
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.stringMatching(/Logs/) } },
        Environment: { Variables: expect.objectContaining({ STAGE: 'dev', NODE_OPTIONS: '--enable-source-maps' }) },
      });
    }
    app.template(app.stacks.api).hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 14 });
  });

  it('gets memory and timeout by kind: API handlers answer within API Gateway limits, workers run longer', () => {
    for (const stack of [app.stacks.api, ...app.stacks.routes])
      app.template(stack).allResourcesProperties('AWS::Lambda::Function', { MemorySize: 1024, Timeout: 10 });
    app.template(app.stacks.workers).hasResourceProperties('AWS::Lambda::Function', { MemorySize: 512, Timeout: 30 });
  });

  it('gets the table, bus and stage, and the URL variables of exactly the queues it uses', () => {
    const urlEnv: Record<string, string> = { deliveries: 'FIXTURE_QUEUE_URL', 'deliveries-dlq': 'FIXTURE_DLQ_URL' };
    for (const fn of app.functions()) {
      const resource = app.template(fn.stack).toJSON().Resources[fn.stack.getLogicalId(fn.node.defaultChild as CfnElement)];
      const variables = Object.keys(resource.Properties.Environment.Variables).sort();
      const consumed = fullWiring.queues.filter((q) => q.consumer === fn.spec).map((q) => q.name);
      const queues = [...(fn.spec.access.queues ?? []), ...consumed].map((name) => urlEnv[name]!);
      expect(variables).toEqual(['EVENT_BUS_NAME', 'NODE_OPTIONS', 'STAGE', 'TABLE_NAME', ...queues].sort());
    }
    expect(app.functions().filter((f) => f.spec.access.queues?.length)).toHaveLength(3);
  });

  it("never carries a local-only setting such as WEBHOOK_ALLOW_PRIVATE_TARGETS or the crash tests' fault point", () => {
    expect(FORBIDDEN_ENV).toContain(FAULT_ENV);
    for (const fn of resources('AWS::Lambda::Function')) {
      for (const name of FORBIDDEN_ENV) expect(fn.Properties).not.toHaveProperty(['Environment', 'Variables', name]);
    }
    const [fn] = app.functions();
    expect(() => fn!.addEnvironment('WEBHOOK_ALLOW_PRIVATE_TARGETS', 'true')).toThrow(/never be set on a deployed function/);
    expect(() => fn!.addEnvironment(FAULT_ENV, 'crash-after-keyed-commit')).toThrow(/never be set on a deployed function/);
  });
});

describe('least privilege', () => {
  const statements = () =>
    resources('AWS::IAM::Policy').flatMap(
      (p) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement,
    );
  const actions = (s: { Action: string | string[] }) => [s.Action].flat();

  it('grants no wildcard actions and no "*" resource except for X-Ray, which requires it', () => {
    for (const statement of statements()) {
      expect(actions(statement).every((a) => !a.endsWith('*'))).toBe(true);
      const resource = JSON.stringify(statement.Resource);
      if (resource === '"*"') expect(actions(statement)).toEqual(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']);
      else expect(resource).not.toMatch(/"\*"|:\*"|\/\*"/);
    }
  });

  type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
  /** A function's role statements as `action on resource [if condition]` lines, one per action and resource. */
  const grantLines = (fn: ParleyFunction, service: string): string[] => {
    const role = fn.stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
    const policies = Object.values(app.template(fn.stack).findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } }));
    const lines = policies
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .flatMap((st) =>
        actions(st)
          .filter((a) => a.startsWith(`${service}:`))
          .flatMap((a) =>
            [st.Resource].flat().map((r) => `${a} on ${JSON.stringify(r)}${st.Condition ? ` if ${JSON.stringify(st.Condition)}` : ''}`),
          ),
      );
    return [...new Set(lines)].sort();
  };
  const functionNamed = (handlerKind: ParleyFunction['kind'], spec: unknown) =>
    app.functions().find((f) => f.kind === handlerKind && f.spec === spec)!;

  it('gives a read-only HTTP function table reads, plus UpdateItem only on the token and rate-limit items its pipeline counts on', () => {
    const fallback = functionNamed('http', fullWiring.fallback);
    expect(fallback.spec.access.table).toBe('read');
    const lines = grantLines(fallback, 'dynamodb');
    expect(lines.filter((l) => l.includes('/index/'))).toEqual([
      expect.stringMatching(/^dynamodb:Query on .*gsi1/),
      expect.stringMatching(/^dynamodb:Query on .*gsi2/),
      expect.stringMatching(/^dynamodb:Query on .*gsi3/),
      expect.stringMatching(/^dynamodb:Query on .*gsi4/),
    ]);
    expect(lines.filter((l) => !l.includes('/index/')).map((l) => l.split(' on ')[0])).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    const update = lines.find((l) => l.startsWith('dynamodb:UpdateItem'))!;
    expect(update).toContain(JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TOKEN#*', 'RL#AUTHFAIL#*'] } }));
  });

  it('gives write functions Put, Update, Delete and ConditionCheck on the table only, and nobody BatchWriteItem, which no code calls', () => {
    const writer = functionNamed('http', fullWiring.routes[1]);
    const lines = grantLines(writer, 'dynamodb');
    expect(lines.filter((l) => !l.includes('/index/')).map((l) => l.split(' on ')[0])).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(lines.filter((l) => l.includes('/index/')).every((l) => l.startsWith('dynamodb:Query on'))).toBe(true);
    for (const fn of app.functions()) expect(grantLines(fn, 'dynamodb').some((l) => l.includes('BatchWriteItem'))).toBe(false);
  });

  it('lets every POST and PATCH function write its idempotency records (<tenant>#IDEM#…) with its change: table writes with no leading-key limit', () => {
    const isKeyed = (r: { method: string }) => r.method === 'POST' || r.method === 'PATCH';
    // The real wiring: every POST and PATCH route is a write function in the one grant table…
    for (const route of wiring.routes.filter(isKeyed)) {
      const write = grantsFor(route, 'http').find((g) => g.actions.includes('dynamodb:PutItem'));
      expect(write, `${route.method} ${route.path}`).toMatchObject({ resource: { table: 'items' } });
      expect(write!.leadingKeyPrefixes).toBeUndefined();
    }
    // …and the deployed policy of such a function says so.
    const keyed = fullWiring.routes.filter(isKeyed);
    expect(keyed.length).toBeGreaterThan(0);
    for (const route of keyed) {
      const table = grantLines(functionNamed('http', route), 'dynamodb').filter((l) => !l.includes('/index/'));
      for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
        expect(
          table.filter((l) => l.startsWith(`${action} on`)),
          `${route.method} ${route.path} ${action}`,
        ).toEqual([expect.not.stringContaining('LeadingKeys')]);
      }
    }
  });

  it('gives every function exactly the DynamoDB grants the shared grant table derives from its wiring access and kind', () => {
    for (const fn of app.functions()) {
      const consumes = fullWiring.queues.find((q) => q.consumer === fn.spec)?.name;
      const expected = grantsFor(fn.spec, fn.kind, consumes).filter((g) => 'table' in g.resource);
      const actionsExpected = [...new Set(expected.flatMap((g) => g.actions))].sort();
      expect([...new Set(grantLines(fn, 'dynamodb').map((l) => l.split(' on ')[0]))].sort(), fn.spec.handler).toEqual(actionsExpected);
    }
  });

  it('lets a queue consumer receive, delete and defer on its own queue and only send to the DLQ it names', () => {
    const consumer = functionNamed('queue', fullWiring.queues[0]!.consumer);
    const lines = grantLines(consumer, 'sqs');
    const onQueue = (re: RegExp) =>
      lines
        .filter((l) => re.test(l.split(' on ')[1]!))
        .map((l) => l.split(' on ')[0])
        .sort();
    expect(onQueue(/GetAttDeliveries(?!Dlq)/)).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
    ]);
    expect(onQueue(/Dlq/)).toEqual(['sqs:SendMessage']);
  });

  it('lets each function touch exactly the queues its wiring access names, plus its own failure DLQ', () => {
    const arnOf = (name: string) => {
      for (const { spec, queue, dlq } of app.stacks.queues.queues.values()) {
        if (spec.name === name) return queue.queueArn;
        if (spec.dlq.name === name) return dlq.queueArn;
      }
      throw new Error(name);
    };
    for (const fn of app.functions()) {
      const role = fn.stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
      const policies = Object.values(app.template(fn.stack).findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } }));
      const touched = new Set(
        policies
          .flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement)
          .filter((st) => actions(st).some((a) => a.startsWith('sqs:')))
          .flatMap((st) => [st.Resource].flat().map((r) => JSON.stringify(r))),
      );
      const consumed = fullWiring.queues.filter((q) => q.consumer === fn.spec).map((q) => q.name);
      const named = [...(fn.spec.access.queues ?? []), ...consumed].map((name) => JSON.stringify(fn.stack.resolve(arnOf(name))));
      const ownDlq = [...touched].filter((r) => !named.includes(r));
      expect(named.every((r) => touched.has(r))).toBe(true);
      if (fn.kind === 'event' || fn.kind === 'schedule') expect(ownDlq).toEqual([expect.stringMatching(/^\{"Fn::GetAtt":\["WorkersDlq/)]);
      else expect(ownDlq).toEqual([]);
    }
  });
});

describe('alarms', () => {
  const alarms = () => resources('AWS::CloudWatch::Alarm');
  const metricNames = () => alarms().map((a) => a.Properties.MetricName ?? 'math');

  it('watch every dead-letter queue, the delivery queue age, the pipe and the API 5xx rate', () => {
    const dlqAlarms = alarms().filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    // pipe DLQ + delivery DLQ + the one DLQ of every rule and schedule
    expect(dlqAlarms).toHaveLength(3);
    for (const a of dlqAlarms) expect(a.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(metricNames()).toEqual(expect.arrayContaining(['ApproximateAgeOfOldestMessage', 'ExecutionFailed']));
    app.template(app.stacks.api).hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([Match.objectLike({ Expression: 'IF(requests > 0, 100 * errors / requests, 0)' })]),
      Threshold: 1,
    });
  });

  it('count every failed invocation of a function into one alarm for the API and one for the workers, and notify the alarm topic', () => {
    expect(metricNames()).not.toContain('Errors');
    const groupOf = (stack: (typeof app.all)[number]) =>
      app.stacks.routes.includes(stack as never) ? app.stacks.api.stackName : stack.stackName;
    for (const stack of app.all.filter((s) => s !== app.stacks.site)) {
      const template = app.template(stack);
      const fns = app.functions().filter((f) => f.stack === stack);
      const filters = Object.values(template.findResources('AWS::Logs::MetricFilter')) as Resource[];
      expect(filters).toHaveLength(fns.length);
      for (const fn of fns) {
        const logGroup = stack.getLogicalId(fn.logGroup.node.defaultChild as CfnElement);
        expect(filters.filter((f) => JSON.stringify(f.Properties.LogGroupName) === JSON.stringify({ Ref: logGroup }))).toHaveLength(1);
      }
      for (const f of filters) {
        expect(f.Properties).toMatchObject({
          FilterPattern: '{ ($.type = "platform.report") && ($.record.status != "success") }',
          MetricTransformations: [{ MetricNamespace: FAILURES_NAMESPACE, MetricName: groupOf(stack), MetricValue: '1' }],
        });
        expect((f.Properties.MetricTransformations as Record<string, unknown>[])[0]).not.toHaveProperty('DefaultValue');
      }
    }
    const failureAlarms = alarms().filter((a) => a.Properties.Namespace === FAILURES_NAMESPACE);
    expect(failureAlarms.map((a) => a.Properties.MetricName).sort()).toEqual([app.stacks.api.stackName, app.stacks.workers.stackName]);
    for (const a of alarms()) {
      expect(a.Properties.TreatMissingData).toBe('notBreaching');
      expect(JSON.stringify(a.Properties.AlarmActions)).toMatch(/^\[\{"(Fn::ImportValue|Ref)":"[^"]*AlarmTopic/);
    }
  });

  it('watch throttling once, region-wide, and draw errors and throttles by function on the dashboard the alarms name', () => {
    const observability = app.template(app.stacks.observability);
    observability.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: Match.absent(),
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^AlarmTopic') }],
    });
    expect(metricNames().filter((n) => n === 'Throttles')).toHaveLength(1);
    const body = JSON.stringify(Object.values(observability.findResources('AWS::CloudWatch::Dashboard'))[0]!.Properties.DashboardBody);
    expect(body).toContain(FUNCTION_FAILURES_GRAPH);
    for (const metric of ['Errors', 'Throttles'])
      expect(body).toMatch(new RegExp(`SEARCH\\('\\{AWS/Lambda,FunctionName\\} MetricName=\\W+${metric}\\W+Parley-dev-`));
    for (const a of alarms().filter((a) => a.Properties.Namespace === FAILURES_NAMESPACE)) {
      expect(a.Properties.AlarmDescription).toContain(FUNCTION_FAILURES_GRAPH);
    }
  });
});

describe('X-Ray sampling', () => {
  it('traces read routes and schedules at 1 % with no reservoir, matched on the function names CloudFormation gives them', () => {
    const rules = Object.values(app.template(app.stacks.observability).findResources('AWS::XRay::SamplingRule')) as Resource[];
    expect(rules.map((r) => r.Properties.SamplingRule)).toEqual([
      expect.objectContaining({ RuleName: 'parley-dev-reads', ServiceName: 'Parley-dev-Api-*-Get*', FixedRate: 0.01, ReservoirSize: 0 }),
      expect.objectContaining({
        RuleName: 'parley-dev-schedules',
        ServiceName: 'Parley-dev-Workers-Schedule*',
        FixedRate: 0.01,
        ReservoirSize: 0,
      }),
    ]);
    // The patterns match what they are meant to: every GET route's function id, every schedule's, nothing else.
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/\*/g, '.*')}$`);
    for (const fn of app.functions()) {
      const name = `${fn.stack.stackName}-${fn.node.id}`;
      const read = fn.kind === 'http' && 'method' in fn.spec && fn.spec.method === 'GET';
      expect(glob('Parley-dev-Api-*-Get*').test(name)).toBe(read);
      expect(glob('Parley-dev-Workers-Schedule*').test(name)).toBe(fn.kind === 'schedule');
    }
  });
});
