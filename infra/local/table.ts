import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { tableSchema } from '../../shared/data/table';

/** Creates the single table as the CDK stack declares it (keys, GSIs, Streams, TTL) unless it exists. */
export const ensureTable = async (client: DynamoDBClient, name: string): Promise<string> => {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    return Table!.LatestStreamArn!;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttrs = [tableSchema.partitionKey, tableSchema.sortKey, ...tableSchema.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const { TableDescription } = await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttrs.map((a) => ({ AttributeName: a, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableSchema.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: i.projection },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true } }),
  );
  return TableDescription!.LatestStreamArn!;
};
