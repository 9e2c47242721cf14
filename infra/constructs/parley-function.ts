import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { tableSchema } from '../../shared/data/table';
import type { BucketSpec, FunctionKind, FunctionSpec, QueueSpec } from '../../functions/wiring/types';
import { sizing } from '../../functions/wiring/sizing';
import { grantsFor, type Grant } from '../grants';
import type { Stage } from '../stage';
import type { Alarms } from './alarms';
import { functionCode } from './bundling';
import { FAULT_AFTER_ENV, FAULT_ENV } from '../local/faults';

/** Local-only settings that must never reach a deployed function. */
export const FORBIDDEN_ENV = [
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'DYNAMODB_ENDPOINT',
  'SQS_ENDPOINT',
  FAULT_ENV,
  FAULT_AFTER_ENV,
  'LOCAL_SECRETS_KEY_FILE',
] as const;

export interface DeployedQueue {
  spec: QueueSpec;
  queue: IQueue;
  dlq: IQueue;
}

/** A bucket as deployed: its name's variable, its grants' key prefix, and where its downloads are signed for, when it has them. */
export interface DeployedBucket {
  bucket: IBucket;
  nameEnv: string;
  keyPrefix: string;
  downloads?: NonNullable<BucketSpec['downloads']> & { url: string; keyPairId: string; keyParameterName: string; keyParameterArn: string };
}

/** What every function may be given access to. */
export interface Platform {
  stage: Stage;
  table: ITable;
  busName: string;
  queues: ReadonlyMap<string, DeployedQueue>;
  /** The wiring's KMS keys by name, with the variable that carries each key's ARN. */
  keys: ReadonlyMap<string, { key: IKey; idEnv: string }>;
  /** The wiring's buckets by name, with the variable that carries each one's name, and their downloads (CDN and signing key). */
  buckets: ReadonlyMap<string, DeployedBucket>;
  alarms: Alarms;
  /** The stack whose failure alarm counts this function's failed invocations. */
  failureGroup: string;
  /** The realtime WebSocket API, once deployed: its URL (tickets name it), its management API and the ARN of its sockets. */
  realtime?: { url: string; managementEndpoint: string; connectionsArn: string };
}

export interface ParleyFunctionProps {
  spec: FunctionSpec;
  kind: FunctionKind;
  /** Shown in the console and in alarm descriptions, e.g. `GET /api/v1/auth/token`. */
  title: string;
  platform: Platform;
  /** Async invocations (rules, schedules) that fail after Lambda's retries are parked here. */
  asyncFailures?: IQueue;
}

/** A wiring queue name is either a queue or its dead-letter queue; each carries its own URL variable. */
const queueNamed = (queues: Platform['queues'], name: string, user: string): { urlEnv: string; queue: IQueue } => {
  for (const { spec, queue, dlq } of queues.values()) {
    if (spec.name === name) return { urlEnv: spec.urlEnv, queue };
    if (spec.dlq.name === name) return { urlEnv: spec.dlq.urlEnv, queue: dlq };
  }
  throw new Error(`${user} uses queue "${name}", which the wiring does not declare`);
};

const keyNamed = (keys: Platform['keys'], name: string, user: string) => {
  const found = keys.get(name);
  if (!found) throw new Error(`${user} uses key "${name}", which the wiring does not declare`);
  return found;
};

/** IAM takes a role description in Latin-1 alone (its pattern refuses `≤`, `…`, `→` and the like); a title is written for people. */
const roleDescription = (title: string) =>
  title
    .replace(/≤/g, '<=')
    .replace(/≥/g, '>=')
    .replace(/…/g, '...')
    .replace(/→/g, '->')
    .replace(/[–—]/g, '-')
    .replace(/[^\t\n\r\x20-\x7E\xA1-\xFF]/g, '?')
    .slice(0, 1000);

const bucketNamed = (buckets: Platform['buckets'], name: string, user: string) => {
  const found = buckets.get(name);
  if (!found) throw new Error(`${user} uses bucket "${name}", which the wiring does not declare`);
  return found;
};

const downloadsOf = (buckets: Platform['buckets'], name: string, user: string) => {
  const found = bucketNamed(buckets, name, user).downloads;
  if (!found) throw new Error(`${user} signs downloads of bucket "${name}", which has none`);
  return found;
};

const realtimeOf = (platform: Platform, user: string) => {
  if (!platform.realtime) throw new Error(`${user} manages the realtime sockets, but this stack has no realtime API`);
  return platform.realtime;
};

/** A grant as IAM sees it: table items, its indexes, or a queue; leading-key prefixes become a `dynamodb:LeadingKeys` condition. */
const statementOf = (grant: Grant, platform: Platform, user: string, scope: Construct): PolicyStatement => {
  const tableArn = platform.table.tableArn;
  const { resource } = grant;
  const resources =
    'bus' in resource
      ? [Stack.of(scope).formatArn({ service: 'events', resource: 'event-bus', resourceName: platform.busName })]
      : 'api' in resource
        ? [realtimeOf(platform, user).connectionsArn]
        : 'queue' in resource
          ? [queueNamed(platform.queues, resource.queue, user).queue.queueArn]
          : 'key' in resource
            ? [keyNamed(platform.keys, resource.key, user).key.keyArn]
            : 'bucket' in resource
              ? [`${bucketNamed(platform.buckets, resource.bucket, user).bucket.bucketArn}/${grant.objectKeyPrefix ?? ''}*`]
              : 'bucketListing' in resource
                ? [bucketNamed(platform.buckets, resource.bucketListing, user).bucket.bucketArn]
                : 'downloadKey' in resource
                  ? [downloadsOf(platform.buckets, resource.downloadKey, user).keyParameterArn]
                  : resource.table === 'items'
                    ? [tableArn]
                    : tableSchema.indexes.map((index) => `${tableArn}/index/${index.name}`);
  return new PolicyStatement({
    actions: [...grant.actions],
    resources,
    ...(grant.leadingKeyPrefixes
      ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': grant.leadingKeyPrefixes.map((p) => `${p}*`) } } }
      : {}),
    ...('bucketListing' in resource && grant.objectKeyPrefix
      ? { conditions: { StringLike: { 's3:prefix': `${grant.objectKeyPrefix}*` } } }
      : {}),
  });
};

/**
 * The house Lambda: Node 22 on arm64, bundled (AWS SDK included) minified ESM with source maps, its own log
 * group with retention, JSON logs, X-Ray, its failures counted towards its stack's alarm, and exactly the table and queue
 * permissions and environment its wiring `access` declares.
 */
export class ParleyFunction extends LambdaFunction {
  /** The wiring entry this function deploys. */
  readonly spec: FunctionSpec;
  readonly kind: FunctionKind;

  constructor(scope: Construct, id: string, props: ParleyFunctionProps) {
    const { spec, kind, platform } = props;
    const { stage } = platform;
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: roleDescription(props.title),
    });
    const consumes = kind === 'queue' ? [...platform.queues.values()].find((q) => q.spec.consumer === spec)?.spec.name : undefined;
    const grants = grantsFor(
      spec,
      kind,
      consumes,
      [...platform.buckets].map(([name, b]) => ({ name, keyPrefix: b.keyPrefix, downloads: b.downloads })),
    );
    const used = [...new Set([...(spec.access.queues ?? []), ...(consumes ? [consumes] : [])])].map((name) =>
      queueNamed(platform.queues, name, spec.handler),
    );
    const { memoryMb, timeoutSeconds } = sizing(spec, kind);
    super(scope, id, {
      code: functionCode(scope, spec.handler),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: memoryMb,
      timeout: Duration.seconds(timeoutSeconds),
      description: props.title.slice(0, 256),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      environment: {
        STAGE: stage.name,
        TABLE_NAME: platform.table.tableName,
        EVENT_BUS_NAME: platform.busName,
        ...(platform.realtime ? { REALTIME_URL: platform.realtime.url } : {}),
        ...(spec.access.connections ? { REALTIME_MANAGEMENT_ENDPOINT: realtimeOf(platform, spec.handler).managementEndpoint } : {}),
        NODE_OPTIONS: '--enable-source-maps',
        ...Object.fromEntries(used.map(({ urlEnv, queue }) => [urlEnv, queue.queueUrl])),
        ...Object.fromEntries(
          Object.keys(spec.access.keys ?? {}).map((name) => {
            const { idEnv, key } = keyNamed(platform.keys, name, spec.handler);
            return [idEnv, key.keyArn];
          }),
        ),
        ...Object.fromEntries(
          Object.keys(spec.access.buckets ?? {}).map((name) => {
            const { nameEnv, bucket } = bucketNamed(platform.buckets, name, spec.handler);
            return [nameEnv, bucket.bucketName];
          }),
        ),
        ...Object.fromEntries(
          Object.entries(spec.access.buckets ?? {})
            .filter(([, uses]) => uses.includes('download'))
            .flatMap(([name]) => {
              const d = downloadsOf(platform.buckets, name, spec.handler);
              return [
                [d.urlEnv, d.url],
                [d.keyPairIdEnv, d.keyPairId],
                [d.keyParameterEnv, d.keyParameterName],
              ];
            }),
        ),
      },
      ...(props.asyncFailures
        ? { onFailure: new SqsDestination(props.asyncFailures), retryAttempts: 2, maxEventAge: Duration.hours(6) }
        : {}),
    });

    this.spec = spec;
    this.kind = kind;
    logGroup.grantWrite(role);
    for (const grant of grants) role.addToPrincipalPolicy(statementOf(grant, platform, spec.handler, scope));
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions; AWS requires "*".',
          appliesTo: ['Resource::*'],
        },
        ...(spec.access.buckets
          ? [
              {
                id: 'AwsSolutions-IAM5',
                reason:
                  'Object keys are <tenant>/<fileId>, made per request: the grant is on the objects of the one bucket its wiring names (under its key prefix), with only the object actions it uses.',
                appliesTo: [{ regex: '/^Resource::<Bucket[A-Za-z0-9]+\\.Arn>\\/.*\\*$/g' }],
              },
            ]
          : []),
        ...(spec.access.connections
          ? [
              {
                id: 'AwsSolutions-IAM5',
                reason:
                  "A socket's connection id exists only at run time; the grant is narrowed to the realtime API's stage and its @connections path.",
                appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:execute-api:.*\\/live\\/\\*\\/@connections\\/\\*$/g' }],
              },
            ]
          : []),
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(this, [
      {
        id: 'AwsSolutions-L1',
        reason: 'docs/operations/deploy.md pins nodejs22.x (the runtime the project is built and tested for), not the newest Node runtime.',
      },
    ]);
    platform.alarms.functionFailures(id, logGroup, platform.failureGroup);
  }

  override addEnvironment(key: string, value: string, options?: Parameters<LambdaFunction['addEnvironment']>[2]): this {
    if ((FORBIDDEN_ENV as readonly string[]).includes(key))
      throw new Error(`${key} is local-only and must never be set on a deployed function`);
    return super.addEnvironment(key, value, options);
  }
}
