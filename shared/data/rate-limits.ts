import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';

export interface WindowCount {
  admitted: boolean;
  /** Requests counted in this window, including this one when admitted. */
  used: number;
}

const key = (subject: string, window: number) => ({ pk: `RL#${subject}#${window}`, sk: 'RL' });

/**
 * Atomically admits one request if the window's count is below `limit`. A refused request is not counted,
 * so concurrent callers can never push the count past the limit.
 */
export const admit = async (subject: string, window: { start: number; end: number }, limit: number): Promise<WindowCount> => {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: key(subject, window.start),
        UpdateExpression: 'ADD #n :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': window.end + 3600 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { admitted: true, used: Number(Attributes?.n ?? 1) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { admitted: false, used: limit };
    throw error;
  }
};

export const countIn = async (subject: string, window: { start: number }): Promise<number> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(subject, window.start) }));
  return Number(Item?.n ?? 0);
};

/** Unconditional increment, for counting failures (e.g. bad tokens per source IP). */
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
