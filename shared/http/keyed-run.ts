import { commitMarker, completionWrites, type KeyRef } from '../data/idempotency';
import { isRaceLost, retryOnConflict } from '../data/retry';
import { commit, runInUnit, SecondTransaction, type UnitOfWork } from '../data/transact';
import { IdempotencyKeyTakenOver } from '../domain/idempotency/decide';
import { successResponse } from './middleware/respond';

/** DynamoDB's cap on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** The held attempt cannot finish as one transaction; nothing it did was written. */
class NeedsEager extends Error {}

const unitFor = (ref: KeyRef, mode: UnitOfWork['mode']): UnitOfWork => ({ mode, marker: commitMarker(ref), afterCommit: [] });

/**
 * The held attempt: the handler runs with its transaction held, then that transaction and the record
 * keeping the response commit as ONE TransactWriteItems, so a crash leaves either both or neither. A lost
 * race (version check, transaction conflict) reruns the handler, as `retryOnConflict` would inside it; any
 * other failed condition reruns it in eager mode, where the handler meets the error at its own `transact`.
 */
const held = async (ref: KeyRef, status: number, now: Date, handler: () => Promise<object>): Promise<object> => {
  const unit = unitFor(ref, 'hold');
  let data: object;
  try {
    data = await runInUnit(unit, handler);
  } catch (error) {
    throw error instanceof SecondTransaction ? new NeedsEager() : error;
  }
  const writes = [...(unit.held?.writes ?? []), ...completionWrites(ref, successResponse(status, data), now)];
  if (writes.length > MAX_TRANSACTION_ITEMS) throw new NeedsEager();
  await commit(writes, unit.held?.onConditionFailed).catch((error: unknown) => {
    throw error instanceof IdempotencyKeyTakenOver || !unit.held ? error : lostRaceOrEager(error);
  });
  for (const fn of unit.afterCommit) await fn();
  return data;
};

/** Lost races are retried by `retryOnConflict`; every other failure of the held transaction goes eager. */
const lostRaceOrEager = (error: unknown): unknown => (isRaceLost(error) ? error : new NeedsEager());

/**
 * The eager attempt, for handlers that need more than one transaction: each commits at once with the
 * record's marker, and the response is kept afterwards. A crash in between leaves the marker, so a repeat
 * gets 409 rather than a second change.
 */
const eager = async (ref: KeyRef, status: number, now: Date, handler: () => Promise<object>): Promise<object> => {
  const data = await runInUnit(unitFor(ref, 'eager'), handler);
  await commit(completionWrites(ref, successResponse(status, data), now));
  return data;
};

/** Runs a request that holds an `Idempotency-Key`: its change and its kept response commit exactly once. */
export const runKeyed = async (ref: KeyRef, status: number, now: Date, handler: () => Promise<object>): Promise<object> => {
  try {
    return await retryOnConflict(() => held(ref, status, now, handler));
  } catch (error) {
    if (!(error instanceof NeedsEager)) throw error;
  }
  return eager(ref, status, now, handler);
};
