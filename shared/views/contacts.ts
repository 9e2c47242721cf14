import * as z from 'zod';
import { Identity, type Customer } from '../domain/contacts/customer';
import { exactly, id, time } from './common';

export const contact = exactly<Customer>()(
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
).meta({ id: 'Customer' });

/** A merge's outcome: the customer kept, the id of the one merged into it (now deleted), and what moved. */
export const customerMerge = z
  .strictObject({
    customer: contact,
    mergedCustomerId: id,
    conversationsMoved: z.number().int().min(0),
    leadsMoved: z.number().int().min(0),
  })
  .meta({ id: 'CustomerMerge' });
