import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { IndexName } from './table';

/** Every item of one GSI partition, page by page (for bounded internal walks, never for API lists). */
export async function* everyItemIn(index: IndexName, pk: string): AsyncGenerator<Record<string, unknown>> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        IndexName: index,
        KeyConditionExpression: `${index}pk = :p`,
        ExpressionAttributeValues: { ':p': pk },
        ExclusiveStartKey,
      }),
    );
    yield* page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
