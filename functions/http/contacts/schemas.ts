import * as z from 'zod';
import { ListQuery } from '../../../shared/http/pagination';
import { Attributes, E164, Identity, MAX_IDENTITIES } from '../../../shared/domain/contacts/customer';
import { ObjectId } from '../../../shared/http/params';
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
