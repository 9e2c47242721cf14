import type { Tenant } from '../domain/auth/tenant';
import { AppError } from '../domain/errors';
import { Missing, Refused } from '../domain/refusal';
import { updateCustomer, type Customer, type CustomerFields } from '../domain/contacts/customer';
import { planBatch, summarize, type BatchResult, type IdProperty, type ParsedInput } from '../domain/contacts/batch';
import { customerIdBy } from '../data/customers';
import { createCustomer, mutateCustomer } from './customers';
import { answerOf } from '../http/refusals';
import { mapLimit } from '../domain/map-limit';
import type { Unit } from '../data/unit';

const GUARD_KIND = { email: 'EMAIL', phone: 'PHONE' } as const;

/** Another writer took or freed the matched value between the lookup and the write; looking again settles it. */
const ATTEMPTS = 3;

type Upserted = { status: 'created' | 'updated' | 'unchanged'; customer: Customer };

/** A create that lost the `idProperty` value's guard to a parallel create: the input now updates that customer. */
const lostKeyTo = (error: unknown, idProperty: IdProperty) =>
  error instanceof Refused && error.refusal === 'unique_value_taken' && error.details?.field === idProperty;

/**
 * Creates the customer holding `key`, or updates it with the input's fields (those the input omits are kept).
 * The create goes through the same guard items as a single create, so a parallel `POST /contacts/customers`
 * of the same value and this upsert never make two customers: the loser of the guard updates instead.
 */
export const upsertCustomer = async (
  unit: Unit,
  tenant: Tenant,
  idProperty: IdProperty,
  key: string,
  fields: CustomerFields,
  now: Date,
  attempt = 1,
): Promise<Upserted> => {
  const again = (error: unknown, raced: boolean) => {
    if (raced && attempt < ATTEMPTS) return upsertCustomer(unit, tenant, idProperty, key, fields, now, attempt + 1);
    throw error;
  };
  const id = await customerIdBy(tenant, { kind: GUARD_KIND[idProperty], value: key });
  if (!id) {
    return createCustomer(unit, tenant, fields, now).then(
      (customer) => ({ status: 'created' as const, customer }),
      (error: unknown) => again(error, lostKeyTo(error, idProperty)),
    );
  }
  let read: Customer | undefined;
  const decide = (c: Customer) => {
    read = c;
    return { customer: updateCustomer(c, fields, now), event: 'customer.contact.updated' as const };
  };
  // `mutateCustomer` answers the customer it read, unchanged and unwritten, when the input changes nothing.
  return mutateCustomer(unit, tenant, id, decide, now).then(
    (customer) => ({ status: customer === read ? ('unchanged' as const) : ('updated' as const), customer }),
    (error: unknown) => again(error, error instanceof Missing),
  );
};

/** An input's refusal as its result; anything that is no refusal (a lost race past retries, a crash) fails the request. */
const refusedResult = (index: number, error: unknown): BatchResult => {
  const answer = error instanceof AppError ? error : answerOf(error);
  if (!answer) throw error;
  return { index, status: 'error', error: answer.toJSON() };
};

/**
 * Inputs upserted at once: distinct values (repeats are refused first), so they only contend on the
 * workspace's customer counter (and an idempotent request's marker), which `retryOnConflict` absorbs.
 */
const CONCURRENCY = 5;

/**
 * Upserts each input (one transaction each, with its usual event), so one bad input never fails the others,
 * and answers in input order. Under an `Idempotency-Key` every transaction carries the key's marker and a
 * retry replays the answer.
 */
export const batchUpsertCustomers = async (unit: Unit, tenant: Tenant, idProperty: IdProperty, inputs: ParsedInput[], now: Date) => {
  const results = await mapLimit(planBatch(idProperty, inputs), CONCURRENCY, async (input): Promise<BatchResult> => {
    if ('error' in input) return refusedResult(input.index, input.error);
    try {
      return { index: input.index, ...(await upsertCustomer(unit, tenant, idProperty, input.key, input.fields, now)) };
    } catch (error) {
      return refusedResult(input.index, error);
    }
  });
  return { results, summary: summarize(results) };
};
