import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import type { Scope } from '../../shared/domain/auth/scopes';
import { tokenFor } from '../support/tenants';

/** Bulk-loads items with BatchWrite (25 a call, 16 calls in flight), retrying unprocessed items: benchmark seeds only. */
export const batchWriteAll = async (items: Record<string, unknown>[]): Promise<void> => {
  const table = config().TABLE_NAME;
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < batches.length) {
        let pending: unknown[] | undefined = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
        while (pending && pending.length > 0) {
          const res: BatchWriteCommandOutput = await dynamo().send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
          pending = res.UnprocessedItems?.[table];
        }
      }
    }),
  );
};

/** Tokens enough that no timed request is rate limited: each one serves `perToken` requests. */
export const rotatingTokens = async (ws: string, scopes: Scope[], requests: number, perToken: number): Promise<() => string> => {
  const tokens = await Promise.all(
    Array.from({ length: Math.ceil(requests / perToken) + 1 }, async () => (await tokenFor([ws], scopes)).token),
  );
  let used = 0;
  return () => tokens[Math.floor(used++ / perToken)]!;
};
