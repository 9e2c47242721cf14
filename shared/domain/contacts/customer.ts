import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { freeFormMap, limitProblem, type FreeFormLimits } from '../free-form';
import { Channel } from '../inbox/conversation';
import { built } from '../built';

/** E.164: a plus, a non-zero country digit, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** Per customer; a map within them keeps the customer item and its events far below DynamoDB's 400 KB. */
export const ATTRIBUTE_LIMITS: FreeFormLimits = { maxEntries: 50, maxKeyLength: 64, maxBytes: 32 * 1024, maxDepth: 1 };

const AttributeValue = /* @__PURE__ */ built(() => z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]));
export const Attributes = /* @__PURE__ */ built(() =>
  freeFormMap(
    z.string().regex(/^[A-Za-z][\w-]{0,63}$/, 'Keys are 1-64 letters, digits, _ or -, starting with a letter'),
    AttributeValue,
    ATTRIBUTE_LIMITS,
  ),
);
export type Attributes = Record<string, string | number | boolean>;

export const Identity = /* @__PURE__ */ built(() =>
  z.strictObject({
    channel: Channel,
    identifier: z.string().trim().min(1).max(320),
  }),
);
export type Identity = z.infer<typeof Identity>;

export const MAX_IDENTITIES = 10;

export interface Customer {
  _id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  externalId: string | null;
  attributes: Attributes;
  identities: Identity[];
  tagIds: string[];
  blocked: boolean;
  lastActivityAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerFields {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  externalId?: string | null;
  attributes?: Record<string, string | number | boolean | null>;
  identities?: Identity[];
}

const withinLimits = (attributes: Attributes, refuse: (problem: string) => Error): Attributes => {
  const problem = limitProblem(attributes, ATTRIBUTE_LIMITS);
  if (problem) throw refuse(problem);
  return attributes;
};

/** Attribute patches merge into the existing map; a `null` value removes that key. The result must fit the limits too (422). */
export const mergeAttributes = (current: Attributes, patch: Record<string, string | number | boolean | null> = {}): Attributes => {
  const out: Attributes = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return withinLimits(out, (problem) => new ValidationError([{ path: 'attributes', message: `Once merged: ${problem}` }]));
};

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Name search folds case and accents and collapses whitespace: "  José  Díaz" → "jose diaz". */
export const normalizeName = (name: string): string =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');

/** Phone search ignores everything but digits: "+1 (555) 01" → "+155501". */
export const normalizePhone = (phone: string): string => `+${phone.replace(/\D/g, '')}`;

export const newCustomer = (input: CustomerFields, id: string, now: Date): Customer => ({
  _id: id,
  name: input.name ?? null,
  email: input.email ? normalizeEmail(input.email) : null,
  phone: input.phone ?? null,
  externalId: input.externalId ?? null,
  attributes: mergeAttributes({}, input.attributes),
  identities: input.identities ?? [],
  tagIds: [],
  blocked: false,
  lastActivityAt: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

export const updateCustomer = (c: Customer, patch: CustomerFields, now: Date): Customer => ({
  ...c,
  ...(patch.name !== undefined ? { name: patch.name } : {}),
  ...(patch.email !== undefined ? { email: patch.email ? normalizeEmail(patch.email) : null } : {}),
  ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
  ...(patch.externalId !== undefined ? { externalId: patch.externalId } : {}),
  ...(patch.identities !== undefined ? { identities: patch.identities } : {}),
  ...(patch.attributes !== undefined ? { attributes: mergeAttributes(c.attributes, patch.attributes) } : {}),
  updatedAt: now.toISOString(),
});

/** A value that must be unique in a workspace: an email, a phone number or a channel identity. */
export type Unique = { kind: 'EMAIL' | 'PHONE'; value: string } | { kind: 'IDENTITY'; identity: Identity };

/** The values that must be unique in a workspace, each named by the request field it came from. */
export type UniqueValue = Unique & { path: string };

export const uniqueValues = (c: Pick<Customer, 'email' | 'phone' | 'identities'>): UniqueValue[] => [
  ...(c.email ? [{ kind: 'EMAIL' as const, value: c.email, path: 'email' }] : []),
  ...(c.phone ? [{ kind: 'PHONE' as const, value: c.phone, path: 'phone' }] : []),
  ...c.identities.map((identity, n) => ({ kind: 'IDENTITY' as const, identity, path: `identities[${n}]` })),
];

const sameIdentity = (a: Identity, b: Identity) => a.channel === b.channel && a.identifier === b.identifier;

/**
 * Merging `mergee` into `base`: the base keeps every value it has; the mergee fills the gaps (name,
 * email, phone, externalId, attributes it lacks), and contributes its identities and tags.
 */
export const mergeCustomers = (base: Customer, mergee: Customer, now: Date): Customer => ({
  ...base,
  name: base.name ?? mergee.name,
  email: base.email ?? mergee.email,
  phone: base.phone ?? mergee.phone,
  externalId: base.externalId ?? mergee.externalId,
  attributes: withinLimits(
    { ...mergee.attributes, ...base.attributes },
    (problem) => new ConflictError(`The merged customer's attributes would break the limits: ${problem}`, { field: 'attributes' }),
  ),
  identities: [...base.identities, ...mergee.identities.filter((i) => !base.identities.some((b) => sameIdentity(b, i)))],
  tagIds: [...new Set([...base.tagIds, ...mergee.tagIds])].sort(),
  blocked: base.blocked,
  lastActivityAt:
    [base.lastActivityAt, mergee.lastActivityAt]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1) ?? null,
  updatedAt: now.toISOString(),
});

/** Blocking a blocked customer (or unblocking an unblocked one) is refused. */
export const setBlocked = (c: Customer, blocked: boolean, now: Date) => {
  if (c.blocked === blocked) throw new ConflictError(`Customer is already ${blocked ? 'blocked' : 'unblocked'}`, { blocked });
  return {
    customer: { ...c, blocked, updatedAt: now.toISOString() },
    event: blocked ? ('customer.contact.blocked' as const) : ('customer.contact.unblocked' as const),
  };
};
