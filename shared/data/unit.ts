import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { isConditionFailure } from './retry';
import { deleteItem, type Key, type Write } from './transact';
import { mergeBumps } from './write-packing';

/**
 * What a unit did with a transaction's writes. `committed`: they are in the table. `held`: this is the first
 * transaction of an idempotent request (docs/guide/idempotency.md), so nothing is written yet: the pipeline
 * commits the writes together with the idempotency record once the handler has returned, and a read now
 * does not see them. A second transaction in that request throws `SecondTransaction` instead (nothing was
 * written), and the pipeline runs the request again with an eager unit, which commits at once.
 */
export type Commit = 'committed' | 'held';

/**
 * The unit of work: the one way a change reaches the table. The route factory gives each request its own
 * (`ctx.unit`), and a service that writes takes it as a parameter, so its type says its writes may be held;
 * workers, schedules and event consumers use `direct`. See docs/contributing/architecture.md.
 */
export interface Unit {
  /**
   * Writes all items atomically, or holds them (see `Commit`). When a condition fails, the failing write's own
   * `onFail` error is thrown, else `onConditionFailed(index)`'s (e.g. a lost version race), else DynamoDB's
   * cancellation.
   */
  commit(writes: Write[], onConditionFailed?: (index: number) => Error): Promise<Commit>;
  /**
   * One write on its own, billed as a standard write (half a transaction's units) by the direct unit: a put,
   * update or delete whose condition makes it safe alone (its failed condition throws
   * ConditionalCheckFailedException). In an idempotent request it is a transaction of one, committed with the response.
   */
  writeAlone(write: Write): Promise<Commit>;
  /**
   * Runs `fn` once this unit's changes are committed: at once, except in a holding unit, which runs it after the
   * pipeline's final commit. A crash in between loses `fn`, so it must be work a sweeper redoes.
   */
  afterCommit(fn: () => Promise<void>): Promise<void>;
}

/**
 * Sends one TransactWriteItems and maps a failed condition to its error (see `Unit.commit`). Bumps of one item
 * are sent as one (`mergeBumps`), which DynamoDB requires of a transaction.
 */
const send = async (all: Write[], onConditionFailed?: (index: number) => Error): Promise<void> => {
  const { writes, origin } = mergeBumps(all);
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item) }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const index = error.CancellationReasons?.findIndex((r) => r.Code === 'ConditionalCheckFailed') ?? -1;
      const raised = writes[index]?.onFail?.() ?? (index >= 0 ? onConditionFailed?.(origin[index]!) : undefined);
      if (raised) throw raised;
    }
    throw error;
  }
};

/** The unit outside idempotent requests (and of every worker, schedule and event consumer): each write commits at once. */
export const direct: Unit = {
  commit: async (writes, onConditionFailed) => {
    await send(writes, onConditionFailed);
    return 'committed';
  },
  writeAlone: async (write) => {
    const { Put, Update, Delete } = write.item;
    if (Put) await dynamo().send(new PutCommand(Put));
    else if (Update) await dynamo().send(new UpdateCommand(Update));
    else if (Delete) await dynamo().send(new DeleteCommand(Delete));
    else await send([write]);
    return 'committed';
  },
  afterCommit: (fn) => fn(),
};

/** Thrown by a second `commit` in a holding unit; the pipeline reruns the request with an eager unit. */
export class SecondTransaction extends Error {
  constructor() {
    super('a second transaction in one held unit of work');
  }
}

/** The one transaction a holding unit kept, and the error map its `commit` was given. */
interface HeldWrites {
  writes: Write[];
  onConditionFailed?: (index: number) => Error;
}

/** A unit that holds its one transaction for whoever created it to commit (with more writes), then runs `afterCommit`. */
export interface HoldingUnit extends Unit {
  held(): HeldWrites | undefined;
  /** Runs the work deferred by `afterCommit`, once the held writes are committed. */
  settle(): Promise<void>;
}

/**
 * The held attempt of an idempotent request (docs/guide/idempotency.md), and an import row's change: the one
 * transaction is not sent but kept, so the pipeline commits it together with the record that keeps its outcome.
 * A second transaction cannot be held (it may read what the first wrote), so it throws `SecondTransaction`.
 */
export const holdingUnit = (): HoldingUnit => {
  let held: HeldWrites | undefined;
  const deferred: (() => Promise<void>)[] = [];
  const commit: Unit['commit'] = async (writes, onConditionFailed) => {
    if (held) throw new SecondTransaction();
    held = { writes, onConditionFailed };
    return 'held';
  };
  return {
    commit,
    writeAlone: (write) => commit([write]),
    afterCommit: async (fn) => {
      deferred.push(fn);
    },
    held: () => held,
    settle: async () => {
      for (const fn of deferred) await fn();
    },
  };
};

/**
 * The eager attempt of an idempotent request: every transaction commits at once carrying `marker` (the update
 * of the idempotency record), so the record counts what was committed.
 */
export const eagerUnit = (marker: Write): Unit => {
  const commit: Unit['commit'] = async (writes, onConditionFailed) => {
    await send([...writes, marker], onConditionFailed);
    return 'committed';
  };
  return { commit, writeAlone: (write) => commit([write]), afterCommit: (fn) => fn() };
};

/**
 * Deletes `key` with `extra` in one transaction, on condition the item is still there: false when it was gone
 * (removed by an earlier run, or meanwhile), so a job that runs again removes and counts each item once.
 */
export const removeOnce = async (key: Key, extra: Write[]): Promise<boolean> => {
  try {
    await direct.commit([deleteItem(key, { condition: 'attribute_exists(pk)' }), ...extra]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
