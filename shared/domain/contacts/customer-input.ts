import * as z from 'zod';
import { Attributes, E164, Identity, MAX_IDENTITIES } from './customer';
import { built } from '../built';

/** A customer's writable fields, as `POST /contacts/customers` takes them (and a batch input, and an imported row). */
export const customerInputFields = () => ({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  phone: z.string().regex(E164, 'Must be an E.164 number like +14155550123').nullable().optional(),
  externalId: z.string().trim().min(1).max(200).nullable().optional(),
  attributes: Attributes.optional(),
  identities: z.array(Identity).max(MAX_IDENTITIES).optional(),
});

export const CustomerInput = /* @__PURE__ */ built(() => z.strictObject(customerInputFields()));
