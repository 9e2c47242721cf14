import { commitMarker, completionWrites, type KeyRef } from '../data/idempotency';
import { isRaceLost, retryOnConflict } from '../data/retry';
import { direct, eagerUnit, holdingUnit, SecondTransaction, type Unit } from '../data/unit';
import { IdempotencyKeyTakenOver } from '../domain/idempotency/decide';
import { successResponse } from './middleware/respond';

/** DynamoDB's cap on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** The held attempt cannot finish as one transaction; nothing it did was written. */
class NeedsEager extends Error {}

/** A handler run in a unit of work it commits through. */
type Handler = (unit: Unit) => Promise<object>;

/**
 * The held attempt: the handler runs in a holding unit, then its held that transaction and the record
 * keeping the response commit as ONE TransactWriteItems, so a crash leaves either both or neither. A lost
 * race (version check, transaction conflict) reruns the handler, as `retryOnConflict` would inside it; any
 * other failed condition reruns it in eager mode, where the handler meets the error at its own `unit.commit`.
 */
const held = async (ref: KeyRef, status: number, now: Date, handler: Handler): Promise<object> => {
  const unit = holdingUnit();
  let data: object;
  try {
    data = await handler(unit);
  } catch (error) {
    throw error instanceof SecondTransaction ? new NeedsEager() : error;
  }
  const kept = unit.held();
  const writes = [...(kept?.writes ?? []), ...completionWrites(ref, successResponse(status, data), now)];
  if (writes.length > MAX_TRANSACTION_ITEMS) throw new NeedsEager();
  await direct.commit(writes, kept?.onConditionFailed).catch((error: unknown) => {
    throw error instanceof IdempotencyKeyTakenOver || !kept ? error : lostRaceOrEager(error);
  });
  await unit.settle();
  return data;
};

/** Lost races are retried by `retryOnConflict`; every other failure of the held transaction goes eager. */
const lostRaceOrEager = (error: unknown): unknown => (isRaceLost(error) ? error : new NeedsEager());

/**
 * The eager attempt, for handlers that need more than one transaction: an eager unit commits each at once with the
 * record's marker, and the response is kept afterwards. A crash in between leaves the marker, so a repeat
 * gets 409 rather than a second change.
 */
const eager = async (ref: KeyRef, status: number, now: Date, handler: Handler): Promise<object> => {
  const data = await handler(eagerUnit(commitMarker(ref)));
  await direct.commit(completionWrites(ref, successResponse(status, data), now));
  return data;
};

/** Runs a request that holds an `Idempotency-Key`: its change and its kept response commit exactly once. */
export const runKeyed = async (ref: KeyRef, status: number, now: Date, handler: Handler): Promise<object> => {
  try {
    return await retryOnConflict(() => held(ref, status, now, handler));
  } catch (error) {
    if (!(error instanceof NeedsEager)) throw error;
  }
  return eager(ref, status, now, handler);
};
