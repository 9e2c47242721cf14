import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { tenantPk } from './keys';

/**
 * A channel account's send rate: one counter per account per clock second, pk=<tenant>#CHRATE#<channel>
 * sk=<unix second>, admitted atomically below the rate whatever the number of workers, expiring by TTL.
 * Returns 0 when a send may go now, else the milliseconds until the next second.
 */
export const takeSendSlot = async (ws: string, channelId: string, ratePerSecond: number, nowMs = Date.now()): Promise<number> => {
  const second = Math.floor(nowMs / 1000);
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: { pk: tenantPk(ws, 'CHRATE', channelId), sk: String(second) },
        UpdateExpression: 'SET #ttl = :ttl ADD n :one',
        ConditionExpression: 'attribute_not_exists(n) OR n < :rate',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':rate': ratePerSecond, ':ttl': second + 120 },
      }),
    );
    return 0;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return (second + 1) * 1000 - nowMs;
    throw error;
  }
};
