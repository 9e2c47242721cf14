import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { rateLimit } from './registry/requests';

const key = (sourceIp: string, window: number) => rateLimit.key({ sourceIp, window: String(window) });

/** The failed authentications from one source address in a fixed window. */
export const failedAuthentications = async (sourceIp: string, window: { start: number }): Promise<number> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(sourceIp, window.start) }));
  return Item ? rateLimit.parse(Item).n : 0;
};

/** Counts a failed authentication from one source address in a fixed window; the item expires by TTL. */
export const countFailedAuthentication = async (sourceIp: string, window: { start: number; end: number }): Promise<void> => {
  await dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: key(sourceIp, window.start),
      UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
      ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': window.end + 3600 },
    }),
  );
};
