import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import type { EventEnvelope } from '../../shared/events/envelope';
import { unpackText } from '../../shared/packed-text';

/**
 * The domain events a workspace has written to the outbox, oldest first (by `occurredAt`, to the
 * millisecond: ids order only by second). Test-only: it scans the test
 * file's own throwaway table; production code never scans.
 */
export const outboxEvents = async (workspaceId: string, eventType?: string): Promise<EventEnvelope[]> => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new ScanCommand({
        TableName: config().TABLE_NAME,
        ConsistentRead: true,
        FilterExpression: '#t = :t AND workspaceId = :w',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':t': 'EVENT', ':w': workspaceId },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items
    .map((i) => JSON.parse(unpackText(i, 'payload')!) as EventEnvelope)
    .filter((e) => !eventType || e.eventType === eventType)
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.eventId.localeCompare(b.eventId));
};
