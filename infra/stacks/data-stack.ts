import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { BucketSpec, KeySpec } from '../../functions/wiring/types';
import { tableSchema } from '../../shared/data/table';
import type { Stage } from '../stage';
import { PrivateDownloads } from '../constructs/private-downloads';
import type { DeployedBucket } from '../constructs/parley-function';

const key = (name: string) => ({ name, type: AttributeType.STRING });

/** The single table, shaped by `tableSchema` (the same shape the local runtime creates). */
export class DataStack extends Stack {
  readonly table: Table;
  /** The wiring's KMS keys (customer managed, rotated yearly), by name. */
  readonly keys = new Map<string, { key: Key; idEnv: string }>();
  /** The wiring's buckets, by name, each with its downloads distribution when it has one. */
  readonly buckets = new Map<string, DeployedBucket>();

  constructor(
    scope: Construct,
    id: string,
    props: StackProps & { stage: Stage; keys: readonly KeySpec[]; buckets: readonly BucketSpec[] },
  ) {
    super(scope, id, props);
    const { stage } = props;
    this.table = new Table(this, 'Table', {
      partitionKey: key(tableSchema.partitionKey),
      sortKey: key(tableSchema.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: tableSchema.ttlAttribute,
      deletionProtection: stage.protectData,
      removalPolicy: stage.removalPolicy,
    });
    for (const index of tableSchema.indexes.filter((i) => stage.tableIndexes.includes(i.name))) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: ProjectionType[index.projection],
      });
    }
    for (const spec of props.keys) {
      const key = new Key(this, `Key-${spec.name}`, {
        description: spec.description,
        enableKeyRotation: true,
        removalPolicy: stage.removalPolicy,
      });
      this.keys.set(spec.name, { key, idEnv: spec.idEnv });
    }
    for (const spec of props.buckets) {
      const bucket = this.privateBucket(spec, stage);
      const downloads =
        spec.downloads &&
        new PrivateDownloads(this, `Downloads-${spec.name}`, { bucket, name: spec.name, headers: spec.downloads.headers, stage });
      this.buckets.set(spec.name, {
        bucket,
        nameEnv: spec.nameEnv,
        keyPrefix: spec.keyPrefix,
        downloads: downloads && spec.downloads && { ...spec.downloads, ...downloads.signing },
      });
    }
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for `npm run parley -- --aws`' });
  }

  /**
   * A private bucket: public access blocked, TLS only, encrypted at rest, objects owned by the bucket (no
   * ACLs), no website. Clients reach it only through presigned POSTs and GETs; CORS allows exactly those
   * from the stage's dashboard origins. S3 tells EventBridge of every new object (the verifier's rule), and
   * the wiring's lifecycle rules expire objects by tag (the files bucket's unverified ones) or by key prefix (exports' CSVs).
   */
  private privateBucket(spec: BucketSpec, stage: Stage): Bucket {
    const bucket = new Bucket(this, `Bucket-${spec.name}`, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...(spec.expire ?? []).map((rule) => ({
          id: rule.id,
          ...('tag' in rule ? { tagFilters: { [rule.tag.key]: rule.tag.value } } : { prefix: rule.prefix }),
          expiration: Duration.days(rule.days),
        })),
      ],
      ...(stage.corsOrigins?.length
        ? {
            cors: [
              {
                allowedOrigins: stage.corsOrigins,
                allowedMethods: [HttpMethods.POST, HttpMethods.GET],
                allowedHeaders: ['*'],
                maxAge: 3000,
              },
            ],
          }
        : {}),
      removalPolicy: stage.removalPolicy,
    });
    // Set on the bucket itself: CDK's `eventBridgeEnabled` adds a custom-resource Lambda to do the same.
    (bucket.node.defaultChild as CfnBucket).notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
    NagSuppressions.addResourceSuppressions(bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'Object access is already recorded per file (its record and events); server access logs would double the request cost of an idle workspace',
      },
    ]);
    return bucket;
  }
}
