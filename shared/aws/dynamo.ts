import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

let client: DynamoDBDocumentClient | undefined;

export const dynamo = (): DynamoDBDocumentClient => {
  if (!client) {
    const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
    client = DynamoDBDocumentClient.from(tracedClient(withPlugins(new DynamoDBClient({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT }))), {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return client;
};
