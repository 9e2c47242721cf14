import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { countedRemoval, customerPartition, type Counted } from './customers-conversations';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { normalizeName, uniqueValues, type Customer, type Unique, type UniqueValue } from '../domain/contacts/customer';
import { leadsOfCustomer } from '../domain/crm/lead-lists';
import * as z from 'zod';
import { batchGetEach } from './batch-get';
import { bump, workspaceCounter } from './counters';
import { customerKey } from './entity-keys';
import { listIsEmpty } from './lists';
import { tagIdsOf, tagLinkWrites } from './tag-links';
import { createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { customer as customerEntity, customerGuard, identityGuardKeys } from './registry/contacts';
import { built } from '../domain/built';

/**
 * Customers (keys: registry/contacts.ts). A customer's entries in the list of all customers and in the name search
 * are keys only (gsi3, gsi4), so a change that keeps its name writes none; a customer stored before has them in
 * gsi1 and gsi2 (`ALL`) and moves over on its next versioned change (`StoredCustomer.indexed`). Unique values
 * (email, phone, channel identity) each own a guard item, created in the same transaction as the customer; email
 * and phone guards double as the search entries for their field.
 */
/** The workspace's count item, which also keeps the conversations' totals (`countOf` in domain/inbox/lists.ts). */
const COUNT_ITEM = 'conversations';
/** The counter that kept the customers total before it moved to the count item, still read and added. */
const CUSTOMERS_BEFORE = 'customers';

/**
 * Counts `delta` customers: `customers` on the workspace's count item, which a new sender's first message bumps
 * anyway for its conversation (one bump of both, `mergeBumps`), where a counter of its own was 2 units more.
 */
export const customersCounted = (tenant: Tenant, delta: number): Write => bump(workspaceCounter(tenant, COUNT_ITEM), { customers: delta });

const countedBefore = /* @__PURE__ */ built(() => z.object({ n: z.number().default(0) }));
const countedNow = /* @__PURE__ */ built(() => z.object({ customers: z.number().default(0) }));

/** The workspace's exact customers total: the count item's and the counter's kept before (one consistent BatchGetItem). */
export const customersTotal = async (tenant: Tenant): Promise<number> => {
  const [before, now] = await batchGetEach([workspaceCounter(tenant, CUSTOMERS_BEFORE), workspaceCounter(tenant, COUNT_ITEM)]);
  return countedBefore.parse(before ?? {}).n + countedNow.parse(now ?? {}).customers;
};

export interface StoredCustomer {
  customer: Customer;
  version: number;
  conversationCount: number;
  lastConversations: Record<string, string>;
  /** Where `conversationCount` was read from, for a deletion's conditions. */
  counted: Counted;
  /** Whether its list and search entries are keys only (false for a customer stored before, in gsi1 and gsi2). */
  indexed: boolean;
}

/** The customer item as stored: its fields, version and the conversation count it held before its count's item. */
const parse = (item: Record<string, unknown>) => customerEntity.parse({ ...item, tagIds: tagIdsOf(item.tagIds) });
export const fromItem = (item: Record<string, unknown>): Customer => {
  const { version: _v, conversationCount: _c, lastConversations: _l, ...customer } = parse(item);
  return customer;
};

/** The list of all customers (gsi3; gsi1 for those stored before) and the name search (gsi4; gsi2 before). */
export const allPartition = (tenant: Tenant) => customerEntity.build('gsi3pk', { tenant });
export const namePartition = (tenant: Tenant) => customerEntity.build('gsi4pk', { tenant });
export const searchPartition = (tenant: Tenant, field: 'email' | 'phone') => customerGuard.build('gsi2pk', { tenant, field });
/** The id of the customer an index entry (any index's: it holds the table key) names. */
export const idOfEntry = (entry: Record<string, unknown>): string => customerEntity.read('pk', entry.pk).id;

/** The customer's keys-only entries: in the list of all customers, and in the name search when it has a name. */
const entries = (tenant: Tenant, c: Customer) => ({
  ...customerEntity.index('gsi3', { tenant, id: c._id }),
  ...(c.name ? customerEntity.index('gsi4', { tenant, folded: normalizeName(c.name), id: c._id }) : {}),
});

const toItem = (tenant: Tenant, c: Customer) => {
  const { tagIds: _tags, ...fields } = c;
  return {
    ...customerKey(tenant, c._id),
    type: 'CUSTOMER',
    version: 1,
    conversationCount: 0,
    lastConversations: {},
    ...fields,
    ...entries(tenant, c),
  };
};

const GUARD_PREFIX = { EMAIL: K.CUSTOMER_EMAIL, PHONE: K.CUSTOMER_PHONE } as const;
/** The key of the guard that holds a unique value. */
export const guardKey = (tenant: Tenant, u: Unique) =>
  u.kind === 'IDENTITY'
    ? identityGuardKeys.key({ tenant, channel: u.identity.channel, identifier: u.identity.identifier })
    : customerGuard.key({ tenant, kind: GUARD_PREFIX[u.kind], value: u.value });

/** A guard's entry in its field's search (email and phone; an identity is not searched). */
export const guardSearch = (tenant: Tenant, u: UniqueValue, customerId: string) =>
  u.kind === 'IDENTITY'
    ? {}
    : customerGuard.index('gsi2', { tenant, field: u.kind === 'EMAIL' ? 'email' : 'phone', value: u.value, customerId });

const guardItem = (tenant: Tenant, u: UniqueValue, customerId: string) => ({
  ...guardKey(tenant, u),
  type: 'CUSTOMER_GUARD',
  customerId,
  ...guardSearch(tenant, u, customerId),
});

const duplicate = (u: UniqueValue) => () =>
  new Refused(
    'unique_value_taken',
    `Another customer in this workspace already has this ${u.kind === 'IDENTITY' ? 'channel identity' : u.kind.toLowerCase()}`,
    {
      field: u.path,
    },
  );

/** Guards to release and to claim when a customer's unique values change (or it is created or deleted). */
const guardWrites = (tenant: Tenant, before: Customer | undefined, after: Customer | undefined): Write[] => {
  const keyOf = (u: UniqueValue) => guardKey(tenant, u).pk;
  const was = before ? uniqueValues(before) : [];
  const is = after ? uniqueValues(after) : [];
  const id = (after ?? before)!._id;
  const released = was.filter((u) => !is.some((v) => keyOf(v) === keyOf(u)));
  const claimed = is.filter((u) => !was.some((v) => keyOf(v) === keyOf(u)));
  return [
    ...released.map((u) => deleteItem(guardKey(tenant, u), { condition: 'customerId = :id', values: { ':id': id } })),
    ...claimed.map((u) => createItem(guardItem(tenant, u, id), duplicate(u))),
  ];
};

/** The customer with its count of conversations: one Query of its partition reads the customer item and its count's item. */
export const getCustomer = async (tenant: Tenant, id: string): Promise<StoredCustomer | undefined> => {
  const { item: Item, own } = await customerPartition(tenant, id);
  if (!Item) return undefined;
  const { version, conversationCount: onCustomer, lastConversations, ...customer } = parse(Item);
  return {
    customer,
    version,
    conversationCount: onCustomer + (own?.n ?? 0),
    lastConversations: { ...lastConversations, ...own?.latest },
    counted: { onCustomer, own: own?.n },
    indexed: Item.gsi1pk === undefined,
  };
};

/** The customer id owning a unique value, if any. */
export const customerIdBy = async (tenant: Tenant, value: Unique): Promise<string | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: guardKey(tenant, value), ConsistentRead: true }),
  );
  return Item && customerGuard.parse(Item).customerId;
};

/**
 * The writes that store a new customer: its item, the guards of its unique values (refused when taken) and the
 * count. With `opened` (its first message opened a conversation in the same transaction), the item is created
 * already counting that conversation as its latest on the channel.
 */
export const customerCreation = (tenant: Tenant, customer: Customer, opened?: { conversationId: string; channel: string }): Write[] => [
  createItem({
    ...toItem(tenant, customer),
    ...(opened ? { conversationCount: 1, lastConversations: { [opened.channel]: opened.conversationId } } : {}),
  }),
  ...guardWrites(tenant, undefined, customer),
  customersCounted(tenant, 1),
];

/**
 * The versioned item update for a customer change, keeping its name search entry in step; a customer stored before
 * (`indexed` false) moves its entries over to the keys-only indexes.
 */
export const customerUpdate = (
  tenant: Tenant,
  { version, indexed }: Pick<StoredCustomer, 'version' | 'indexed'>,
  before: Customer,
  after: Customer,
  set: Record<string, unknown> = {},
): Write => {
  const own = entries(tenant, after);
  return versionedUpdate(customerKey(tenant, after._id), version, before, after, {
    skip: ['tagIds'],
    set: { ...own, ...set },
    remove: [...(own.gsi4pk ? [] : ['gsi4pk', 'gsi4sk']), ...(indexed ? [] : ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'])],
  });
};

/** The writes that store `after` over the version read, with the guards its unique values release and claim. */
export const customerChange = (tenant: Tenant, stored: StoredCustomer, after: Customer): Write[] => [
  customerUpdate(tenant, stored, stored.customer, after),
  ...guardWrites(tenant, stored.customer, after),
];

/**
 * The customer item's own `conversationCount` is still what was read (`:c`): with `countedRemoval`, a removal
 * made on a read total of 0 fails if a conversation was counted meanwhile.
 */
export const UNCHANGED_COUNT = '(attribute_not_exists(conversationCount) OR conversationCount = :c)';

/** A guard for removing a customer: no lead is linked to it (the count is kept with every lead's links). */
export const noLeads = (tenant: Tenant, customerId: string, onFail: () => Error): Write =>
  listIsEmpty(tenant, 'lead', leadsOfCustomer(customerId), onFail);

/**
 * The customer's item deleted as read, with its count's tombstone: its version and the conversations it counts
 * unchanged (a conversation counted meanwhile, on either item, fails it and the removal runs again), and `also`.
 */
const removalAsRead = (
  tenant: Tenant,
  { customer, version, counted }: StoredCustomer,
  now: Date,
  also?: { condition: string; values: Record<string, unknown> },
): Write[] => [
  deleteItem(customerKey(tenant, customer._id), {
    condition: `#v = :v AND ${UNCHANGED_COUNT}${also ? ` AND ${also.condition}` : ''}`,
    names: { '#v': 'version' },
    values: { ':v': version, ':c': counted.onCustomer, ...also?.values },
  }),
  countedRemoval(tenant, customer._id, counted.own, now),
];

/**
 * The writes that delete the customer as read, its guards and its tag links, and uncount it: conditional on its
 * version, on its having no conversations and the tags read (a concurrent tagging re-runs it), and refused while a
 * lead is linked to it.
 */
export const customerDeletion = (tenant: Tenant, stored: StoredCustomer, now: Date): Write[] => {
  const { customer } = stored;
  const tags = customer.tagIds;
  return [
    ...removalAsRead(tenant, stored, now, {
      condition: tags.length ? 'size(tagIds) = :n' : 'attribute_not_exists(tagIds)',
      values: tags.length ? { ':n': tags.length } : {},
    }),
    ...guardWrites(tenant, customer, undefined),
    ...tagLinkWrites(tenant, 'customer', customer._id, tags, -1, now),
    noLeads(
      tenant,
      customer._id,
      () =>
        new Refused(
          'customer_has_leads',
          'Customer has leads; delete them, link them to another customer, or merge this customer into another',
        ),
    ),
    customersCounted(tenant, -1),
  ];
};

/**
 * The writes that delete the customer as read for its erasure, its unique values' guards and its tag links,
 * and uncount it: conditional on the conversations it counts as read (the erasure deleted them all first; one
 * counted meanwhile fails it, and the erasure deletes that one too), whatever leads still name it (the erasure
 * unlinks those itself). A concurrent tagging changes its version and re-runs it.
 */
export const customerErasure = (tenant: Tenant, stored: StoredCustomer, now: Date): Write[] => [
  ...removalAsRead(tenant, stored, now),
  ...guardWrites(tenant, stored.customer, undefined),
  ...tagLinkWrites(tenant, 'customer', stored.customer._id, stored.customer.tagIds, -1, now),
  customersCounted(tenant, -1),
];
