import * as z from 'zod';
import { Identity, type Customer } from '../domain/contacts/customer';
import { ERROR_CODES } from '../domain/errors';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const contact = /* @__PURE__ */ built(() =>
  exactly<Customer>()(
    z.strictObject({
      _id: id,
      name: z.string().nullable(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      externalId: z.string().nullable(),
      attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      identities: z.array(Identity),
      tagIds: z.array(id),
      blocked: z.boolean(),
      lastActivityAt: time.nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Customer' }),
);

/** A merge's outcome: the customer kept, the id of the one merged into it (now deleted), and what moved. */
export const customerMerge = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      customer: contact,
      mergedCustomerId: id,
      conversationsMoved: z.number().int().min(0),
      leadsMoved: z.number().int().min(0),
    })
    .meta({ id: 'CustomerMerge' }),
);

/** An input's refusal in a batch: the error wrapper's `error`, as a request of that input alone would answer. */
const inputError = /* @__PURE__ */ built(() =>
  z
    .strictObject({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()).optional() })
    .meta({ id: 'BatchInputError' }),
);

/** A batch upsert's answer: one result per input, in input order, and their counts. */
export const customerBatch = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      results: z.array(
        z.discriminatedUnion('status', [
          z.strictObject({ index: z.number().int().min(0), status: z.enum(['created', 'updated', 'unchanged']), customer: contact }),
          z.strictObject({ index: z.number().int().min(0), status: z.literal('error'), error: inputError }),
        ]),
      ),
      summary: z.strictObject({
        created: z.number().int().min(0),
        updated: z.number().int().min(0),
        unchanged: z.number().int().min(0),
        errors: z.number().int().min(0),
      }),
    })
    .meta({ id: 'CustomerBatch' }),
);
