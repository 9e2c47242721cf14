import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';

/** This worker's DynamoDB Local: global-setup starts one per worker, and VITEST_POOL_ID counts them from 1. */
export const dynamoEndpoint = (): string => {
  const endpoints = inject('dynamoEndpoints');
  return endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length]!;
};

/** Drops a test file's table from its DynamoDB Local. */
export const dropTable = async (endpoint: string, tableName: string): Promise<void> => {
  const ddb = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await ddb.send(new DeleteTableCommand({ TableName: tableName }));
  } finally {
    ddb.destroy();
  }
};
