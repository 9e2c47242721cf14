import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableSchema } from '../../shared/data/table';
import type { Stage } from './stage';

const key = (name: string) => ({ name, type: AttributeType.STRING });

/** The single table, shaped by `tableSchema` (the same shape the local runtime creates). */
export class DataStack extends Stack {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StackProps & { stage: Stage }) {
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
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for `npm run parley -- --aws`' });
  }
}
