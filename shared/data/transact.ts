import { AsyncLocalStorage } from 'node:async_hooks';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { isConditionFailure } from './retry';

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
 * The writes of one idempotent request (docs/guide/idempotency.md). In `hold` mode the request's one
 * transaction is not sent when the code calls `transact`: the pipeline commits it later together with
 * the idempotency record that holds the response, so the change and its response exist together or not
 * at all. A second transaction cannot be held (it may read what the first wrote), so it aborts the
 * attempt, which has written nothing, and the pipeline runs the request again in `eager` mode: every
 * transaction then commits at once, each carrying `marker`, so the record counts what was committed.
 */
export interface UnitOfWork {
  mode: 'hold' | 'eager';
  /** The update of the idempotency record that rides in every eager transaction. */
  marker: Write;
  held?: { writes: Write[]; onConditionFailed?: (index: number) => Error };
  /** Work that must follow the commit (e.g. enqueueing what the transaction recorded). */
  afterCommit: (() => Promise<void>)[];
}

/** Thrown by a second `transact` in hold mode; the pipeline reruns the request in eager mode. */
export class SecondTransaction extends Error {
  constructor() {
    super('a second transaction in one held unit of work');
  }
}

const units = new AsyncLocalStorage<UnitOfWork>();

export const runInUnit = <T>(unit: UnitOfWork, fn: () => Promise<T>): Promise<T> => units.run(unit, fn);

const currentUnit = (): UnitOfWork | undefined => units.getStore();

/**
 * Runs `fn` once this request's changes are committed: at once outside a held unit of work, else after
 * the pipeline's final commit. A crash in between loses `fn`, so it must be work a sweeper redoes.
 */
export const afterCommit = async (fn: () => Promise<void>): Promise<void> => {
  const unit = currentUnit();
  if (unit?.mode === 'hold') unit.afterCommit.push(fn);
  else await fn();
};

/** Sends one TransactWriteItems and maps a failed condition to its error (see `transact`). */
export const commit = async (writes: Write[], onConditionFailed?: (index: number) => Error): Promise<void> => {
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

/**
 * What `transact` did with its writes. `committed`: they are in the table. `held`: this is the first
 * transaction of an idempotent request (docs/guide/idempotency.md), so nothing is written yet: the pipeline
 * commits the writes together with the idempotency record once the handler has returned, and a read now
 * does not see them. A second `transact` in that request throws `SecondTransaction` instead (nothing was
 * written), and the pipeline runs the request again with every transaction committed at once.
 */
export type Commit = 'committed' | 'held';

/**
 * The most writes one `transact` call may hold: DynamoDB's 100 items per transaction, less the one an
 * idempotent request adds to each (its marker, or the record committed with the held writes).
 */
export const MAX_TRANSACTION_WRITES = 99;

/**
 * Writes all items atomically (or holds them: see `Commit`). When a condition fails, the failing write's own
 * `onFail` error is thrown, else `onConditionFailed(index)`'s (e.g. a lost version race), else DynamoDB's
 * cancellation. Every transaction of an idempotent request that needs more than one carries the
 * idempotency marker.
 */
export const transact = async (writes: Write[], onConditionFailed?: (index: number) => Error): Promise<Commit> => {
  const unit = currentUnit();
  if (unit?.mode === 'hold') {
    if (unit.held) throw new SecondTransaction();
    unit.held = { writes, onConditionFailed };
    return 'held';
  }
  await commit(unit ? [...writes, unit.marker] : writes, onConditionFailed);
  return 'committed';
};

/**
 * One write on its own, billed as a standard write (half a transaction's units): a put, update or delete
 * whose condition makes it safe alone. Its failed condition throws ConditionalCheckFailedException. Inside
 * an idempotent request it joins the unit of work as a transaction of one, so it commits with the response.
 */
export const writeAlone = async (write: Write): Promise<Commit> => {
  const { Put, Update, Delete } = write.item;
  if (currentUnit() || !(Put || Update || Delete)) return transact([write]);
  if (Put) await dynamo().send(new PutCommand(Put));
  else if (Update) await dynamo().send(new UpdateCommand(Update));
  else await dynamo().send(new DeleteCommand(Delete!));
  return 'committed';
};

/**
 * Deletes `key` with `extra` in one transaction, on condition the item is still there: false when it was gone
 * (removed by an earlier run, or meanwhile), so a job that runs again removes and counts each item once.
 */
export const removeOnce = async (key: Key, extra: Write[]): Promise<boolean> => {
  try {
    await transact([deleteItem(key, { condition: 'attribute_exists(pk)' }), ...extra]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
