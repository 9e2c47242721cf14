import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';

type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Key = { pk: string; sk: string };

/** A write's condition, the attribute names and values its expressions use, and the error its failure means. */
export interface Guard {
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  onFail?: () => Error;
}

/** One item of a transaction: a put, update, delete or condition check, and the error its failed condition raises. */
export interface Write {
  item: TxItem;
  onFail?: () => Error;
}

const table = () => config().TABLE_NAME;

const expressions = ({ condition, names, values }: Guard) => ({
  ConditionExpression: condition,
  ExpressionAttributeNames: names,
  ExpressionAttributeValues: values,
});

export const putItem = (item: Record<string, unknown>, guard: Guard = {}): Write => ({
  item: { Put: { TableName: table(), Item: item, ...expressions(guard) } },
  onFail: guard.onFail,
});

/** A put that fails the transaction when the key already exists. */
export const createItem = (item: Record<string, unknown>, onFail?: () => Error): Write =>
  putItem(item, { condition: 'attribute_not_exists(pk)', onFail });

export const updateItem = (key: Key, update: string, guard: Guard = {}): Write => ({
  item: { Update: { TableName: table(), Key: key, UpdateExpression: update, ...expressions(guard) } },
  onFail: guard.onFail,
});

export const deleteItem = (key: Key, guard: Guard = {}): Write => ({
  item: { Delete: { TableName: table(), Key: key, ...expressions(guard) } },
  onFail: guard.onFail,
});

export const conditionCheck = (key: Key, guard: Guard & { condition: string }): Write => ({
  item: { ConditionCheck: { TableName: table(), Key: key, ...expressions(guard) } },
  onFail: guard.onFail,
});

/**
 * Writes all items atomically. When a condition fails, the failing write's own `onFail` error is thrown,
 * else `onConditionFailed(index)`'s (e.g. a lost version race), else DynamoDB's cancellation.
 */
export const transact = async (writes: Write[], onConditionFailed?: (index: number) => Error): Promise<void> => {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const index = error.CancellationReasons?.findIndex((r) => r.Code === 'ConditionalCheckFailed') ?? -1;
      const raised = writes[index]?.onFail?.() ?? (index >= 0 ? onConditionFailed?.(index) : undefined);
      if (raised) throw raised;
    }
    throw error;
  }
};
