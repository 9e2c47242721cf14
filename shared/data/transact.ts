import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type Key = { pk: string; sk: string };

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
 * The most writes one `commit` may hold: DynamoDB's 100 items per transaction, less the one an
 * idempotent request adds to each (its marker, or the record committed with the held writes).
 */
export const MAX_TRANSACTION_WRITES = 99;
