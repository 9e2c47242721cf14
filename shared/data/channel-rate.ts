import type { Tenant } from '../domain/auth/tenant';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { channelRate } from './registry/channels';

/**
 * A channel account's send rate: one counter per account per clock second, expiring by TTL. A worker asks for `wanted` slots with one atomic ADD and is granted
 * what the counter shows was still below the rate before its own addition, so the slots granted in a
 * second never exceed the rate whatever the number of workers (a counter past the rate only means "full").
 * `waitMs` is the time until the next second when fewer than `wanted` were granted.
 */
export const takeSendSlots = async (
  tenant: Tenant,
  channelId: string,
  ratePerSecond: number,
  wanted: number,
  nowMs = Date.now(),
): Promise<{ granted: number; waitMs: number }> => {
  const second = Math.floor(nowMs / 1000);
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: channelRate.key({ tenant, channelId, second: String(second) }),
      UpdateExpression: 'SET #ttl = :ttl ADD n :wanted',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':wanted': wanted, ':ttl': second + 120 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const before = channelRate.parse(Attributes!).n - wanted;
  const granted = Math.max(0, Math.min(wanted, ratePerSecond - before));
  return { granted, waitMs: granted < wanted ? (second + 1) * 1000 - nowMs : 0 };
};
