import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { KeySpec } from '../wiring/types';
import { tableSchema } from '../../shared/data/table';
import type { Stage } from '../stage';

const key = (name: string) => ({ name, type: AttributeType.STRING });

/** The single table, shaped by `tableSchema` (the same shape the local runtime creates). */
export class DataStack extends Stack {
  readonly table: Table;
  /** The wiring's KMS keys (customer managed, rotated yearly), by name. */
  readonly keys = new Map<string, { key: Key; idEnv: string }>();

  constructor(scope: Construct, id: string, props: StackProps & { stage: Stage; keys: readonly KeySpec[] }) {
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
    for (const index of tableSchema.indexes) {
      this.table.addGlobalSecondaryIndex({ indexName: index.name, partitionKey: key(index.partitionKey), sortKey: key(index.sortKey) });
    }
    for (const spec of props.keys) {
      const key = new Key(this, `Key-${spec.name}`, {
        description: spec.description,
        enableKeyRotation: true,
        removalPolicy: stage.removalPolicy,
      });
      this.keys.set(spec.name, { key, idEnv: spec.idEnv });
    }
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for `npm run parley -- --aws`' });
  }
}
