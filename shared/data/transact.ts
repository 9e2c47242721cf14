import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';

export type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Values = Record<string, unknown>;
type Names = Record<string, string>;

const table = () => config().TABLE_NAME;

export const putItem = (item: Record<string, unknown>, condition?: string, names?: Names, values?: Values): TxItem => ({
  Put: {
    TableName: table(),
    Item: item,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  },
});

/** A put that fails the transaction when the key already exists. */
export const createItem = (item: Record<string, unknown>): TxItem => putItem(item, 'attribute_not_exists(pk)');

export const updateItem = (
  key: { pk: string; sk: string },
  update: string,
  opts: { names?: Names; values?: Values; condition?: string } = {},
): TxItem => ({
  Update: {
    TableName: table(),
    Key: key,
    UpdateExpression: update,
    ConditionExpression: opts.condition,
    ExpressionAttributeNames: opts.names,
    ExpressionAttributeValues: opts.values,
  },
});

export const deleteItem = (key: { pk: string; sk: string }, condition?: string): TxItem => ({
  Delete: { TableName: table(), Key: key, ConditionExpression: condition },
});

export const conditionCheck = (key: { pk: string; sk: string }, condition: string, values?: Values): TxItem => ({
  ConditionCheck: { TableName: table(), Key: key, ConditionExpression: condition, ExpressionAttributeValues: values },
});

/**
 * Writes all items atomically. When a condition fails, `onConditionFailed` receives the index of the
 * failing item and returns the domain error to throw (e.g. CONFLICT for a duplicate key).
 * `idempotencyToken` makes a retried call within 10 minutes a no-op instead of a duplicate.
 */
export const transact = async (
  items: TxItem[],
  onConditionFailed?: (index: number) => Error,
  idempotencyToken?: string,
): Promise<void> => {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: idempotencyToken }));
  } catch (error) {
    if (error instanceof TransactionCanceledException && onConditionFailed) {
      const index = error.CancellationReasons?.findIndex((r) => r.Code === 'ConditionalCheckFailed') ?? -1;
      if (index >= 0) throw onConditionFailed(index);
    }
    throw error;
  }
};
