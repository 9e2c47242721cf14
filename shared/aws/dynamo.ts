import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

export const dynamo = clientPerLane((requestHandler) => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  return DynamoDBDocumentClient.from(
    tracedClient(withPlugins(new DynamoDBClient({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT, requestHandler }))),
    {
      marshallOptions: { removeUndefinedValues: true },
    },
  );
});
