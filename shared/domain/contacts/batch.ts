import type { AppError, FieldError } from '../errors';
import { ValidationError } from '../errors';
import { normalizeEmail, type Customer, type CustomerFields } from './customer';

/** The most inputs one `POST /contacts/customers/batch` takes. */
export const MAX_BATCH_INPUTS = 100;

export type IdProperty = 'email' | 'phone';

/** One input as the request validated it: its fields, or the 422 entries that refused it. */
export type ParsedInput = { fields: CustomerFields } | { errors: FieldError[] };

/** An input that will be upserted by `key` (its `idProperty` value as stored), or refused before any write. */
export type PlannedInput = { index: number; key: string; fields: CustomerFields } | { index: number; error: AppError };

export type BatchResult =
  | { index: number; status: 'created' | 'updated' | 'unchanged'; customer: Customer }
  | { index: number; status: 'error'; error: ReturnType<AppError['toJSON']> };

/** The value an input is matched by, in the form its uniqueness guard stores (emails fold case). */
const keyOf = (idProperty: IdProperty, fields: CustomerFields): string | null => {
  if (idProperty === 'phone') return fields.phone ?? null;
  return fields.email ? normalizeEmail(fields.email) : null;
};

/**
 * What each input will do, decided before any write: an invalid input, one without its `idProperty`, and a
 * second input naming the same `idProperty` value as an earlier one are refused (422, paths relative to the
 * input); the rest are upserted in order. Refusing the repeat makes a batch's outcome independent of timing.
 */
export const planBatch = (idProperty: IdProperty, inputs: ParsedInput[]): PlannedInput[] => {
  const firstIndex = new Map<string, number>();
  return inputs.map((input, index) => {
    if ('errors' in input) return { index, error: new ValidationError(input.errors) };
    const key = keyOf(idProperty, input.fields);
    if (key === null) {
      return {
        index,
        error: new ValidationError([{ path: idProperty, message: `Required: the batch matches customers by ${idProperty}` }]),
      };
    }
    const earlier = firstIndex.get(key);
    if (earlier !== undefined) {
      return { index, error: new ValidationError([{ path: idProperty, message: `The same ${idProperty} as inputs[${earlier}]` }]) };
    }
    firstIndex.set(key, index);
    return { index, key, fields: input.fields };
  });
};

export const summarize = (results: BatchResult[]) => ({
  created: results.filter((r) => r.status === 'created').length,
  updated: results.filter((r) => r.status === 'updated').length,
  unchanged: results.filter((r) => r.status === 'unchanged').length,
  errors: results.filter((r) => r.status === 'error').length,
});
