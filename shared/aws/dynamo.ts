import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';

export const dynamo = clientPerLane((requestHandler) => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  return DynamoDBDocumentClient.from(withPlugins(new DynamoDBClient({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT, requestHandler })), {
    marshallOptions: { removeUndefinedValues: true },
  });
});
