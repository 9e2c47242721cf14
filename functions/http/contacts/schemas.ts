import * as z from 'zod';
import { ListQuery } from '../../../shared/http/pagination';
import { customerInputFields } from '../../../shared/domain/contacts/customer-input';
import { ObjectId } from '../../../shared/http/params';
import { fieldErrors } from '../../../shared/http/validation';
import { MAX_BATCH_INPUTS, type ParsedInput } from '../../../shared/domain/contacts/batch';
import { ImportColumns } from '../../../shared/domain/imports/columns';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

export const CreateCustomer = /* @__PURE__ */ built(() => z.strictObject(customerInputFields()));

export const UpdateCustomer = /* @__PURE__ */ built(() => z.strictObject(customerInputFields()));

export const CustomerFilters = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...ListQuery.shape,
    name: z.string().trim().min(1).max(200).optional(),
    email: z.string().trim().min(1).max(320).optional(),
    phone: z
      .string()
      .regex(/^\+?\d{1,15}$/, 'Digits, optionally after a +')
      .optional(),
    tagId: ObjectId.optional(),
  }),
);

export const MergeCustomers = /* @__PURE__ */ built(() => z.strictObject({ baseId: ObjectId, mergeeId: ObjectId }));

export const BatchUpsertCustomers = /* @__PURE__ */ built(() =>
  z.strictObject({
    idProperty: z.enum(['email', 'phone']).describe('The field that matches an input to an existing customer'),
    inputs: z
      .array(z.unknown().describe('A customer’s fields, as the body of `POST /contacts/customers`; each input is validated on its own'))
      .min(1)
      .max(MAX_BATCH_INPUTS),
  }),
);

/** Each input checked alone, so one invalid input is that input's 422 entries and never the batch's. */
export const parseInputs = (inputs: unknown[]): ParsedInput[] =>
  inputs.map((input) => {
    const parsed = CreateCustomer.safeParse(input);
    return parsed.success ? { fields: parsed.data } : { errors: fieldErrors(parsed.error, input).errors };
  });

export const CreateCustomersExport = /* @__PURE__ */ built(() =>
  z.strictObject({
    filter: CustomerFilters.omit({ page: true, limit: true, cursor: true }).optional().describe('The filters of `GET /contacts/customers`'),
  }),
);

const CustomerColumns = ImportColumns.describe(
  'CSV header → field (`name`, `email`, `phone`, `externalId` or `attributes.<key>`), or null to skip that column',
);

export const CreateCustomersImport = /* @__PURE__ */ built(() =>
  z.strictObject({
    idProperty: z.enum(['email', 'phone']).describe('The field that matches a row to an existing customer'),
    columns: CustomerColumns.optional(),
  }),
);
