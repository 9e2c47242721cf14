import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { K } from './registry/registry';
import { rateLimit } from './registry/requests';

const key = (subject: string, window: number) => rateLimit.key({ subject, window: String(window) });

/** The failed authentications counted against one source address. */
export const authFailures = (sourceIp: string) => `${K.AUTHFAIL}#${sourceIp}`;

export const countIn = async (subject: string, window: { start: number }): Promise<number> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(subject, window.start) }));
  return Item ? rateLimit.parse(Item).n : 0;
};

/** Counts a failure (e.g. a bad token from one source IP) in a fixed window; the item expires by TTL. */
export const increment = async (subject: string, window: { start: number; end: number }): Promise<void> => {
  await dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: key(subject, window.start),
      UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
      ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': window.end + 3600 },
    }),
  );
};
