import * as z from 'zod';
import { ListQuery } from '../../../shared/http/pagination';
import { Attributes, E164, Identity, MAX_IDENTITIES } from '../../../shared/domain/contacts/customer';
import { ObjectId } from '../../../shared/http/params';
import { fieldErrors } from '../../../shared/http/validation';
import { MAX_BATCH_INPUTS, type ParsedInput } from '../../../shared/domain/contacts/batch';
export { IdParams } from '../../../shared/http/params';

const fields = {
  name: z.string().trim().min(1).max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  phone: z.string().regex(E164, 'Must be an E.164 number like +14155550123').nullable().optional(),
  externalId: z.string().trim().min(1).max(200).nullable().optional(),
  attributes: Attributes.optional(),
  identities: z.array(Identity).max(MAX_IDENTITIES).optional(),
};

export const CreateCustomer = z.strictObject(fields);

export const UpdateCustomer = z.strictObject(fields);

export const CustomerFilters = z.strictObject({
  ...ListQuery.shape,
  name: z.string().trim().min(1).max(200).optional(),
  email: z.string().trim().min(1).max(320).optional(),
  phone: z
    .string()
    .regex(/^\+?\d{1,15}$/, 'Digits, optionally after a +')
    .optional(),
  tagId: ObjectId.optional(),
});

export const MergeCustomers = z.strictObject({ baseId: ObjectId, mergeeId: ObjectId });

export const BatchUpsertCustomers = z.strictObject({
  idProperty: z.enum(['email', 'phone']).describe('The field that matches an input to an existing customer'),
  inputs: z
    .array(z.unknown().describe('A customer’s fields, as the body of `POST /contacts/customers`; each input is validated on its own'))
    .min(1)
    .max(MAX_BATCH_INPUTS),
});

/** Each input checked alone, so one invalid input is that input's 422 entries and never the batch's. */
export const parseInputs = (inputs: unknown[]): ParsedInput[] =>
  inputs.map((input) => {
    const parsed = CreateCustomer.safeParse(input);
    return parsed.success ? { fields: parsed.data } : { errors: fieldErrors(parsed.error, input).errors };
  });

export const CreateCustomersExport = z.strictObject({
  filter: CustomerFilters.omit({ page: true, limit: true, cursor: true }).optional().describe('The filters of `GET /contacts/customers`'),
});
