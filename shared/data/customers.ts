import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { countedErasure, countedRemoval, customerPartition, type Counted } from './customers-conversations';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { normalizeName, uniqueValues, type Customer, type UniqueValue } from '../domain/contacts/customer';
import { leadsOfCustomer } from '../domain/crm/lead-lists';
import { bumpCounter } from './counters';
import { customerKey } from './entity-keys';
import { listIsEmpty } from './lists';
import { tenantPk } from './keys';
import { tagIdsOf, tagLinkWrites } from './tag-links';
import { createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { contact as contactView } from '../views/contacts';

/**
 * Customers: pk=<tenant>#CUSTOMER#<id> sk=CUSTOMER.
 * - all of a workspace, newest first .. gsi1pk=<tenant>#CUSTOMERS          gsi1sk=<id>
 * - name prefix search ............... gsi2pk=<tenant>#CUSTOMER_SEARCH#name gsi2sk=<folded name>#<id>
 * Unique values (email, phone, channel identity) each own a guard item, pk=<tenant>#CUSTOMER_<KIND>#<value>,
 * created in the same transaction as the customer; email and phone guards double as the search index
 * for their field (gsi2pk=<tenant>#CUSTOMER_SEARCH#email|phone, gsi2sk=<value>#<id>).
 */
export const CUSTOMERS_COUNTER = 'customers';

export const searchPartition = (tenant: Tenant, field: 'name' | 'email' | 'phone') => tenantPk(tenant, K.CUSTOMER_SEARCH, field);
export const allPartition = (tenant: Tenant) => tenantPk(tenant, K.CUSTOMERS);

export interface StoredCustomer {
  customer: Customer;
  version: number;
  conversationCount: number;
  lastConversations: Record<string, string>;
  /** Where `conversationCount` was read from, for a deletion's conditions. */
  counted: Counted;
}

const decode = itemCodec(contactView);
export const fromItem = (item: Record<string, unknown>): Customer => decode({ ...item, tagIds: tagIdsOf(item.tagIds) });

const nameIndex = (tenant: Tenant, c: Customer) =>
  c.name ? { gsi2pk: searchPartition(tenant, 'name'), gsi2sk: `${normalizeName(c.name)}#${c._id}` } : undefined;

const toItem = (tenant: Tenant, c: Customer) => {
  const { tagIds: _tags, ...fields } = c;
  return {
    ...customerKey(tenant, c._id),
    type: 'CUSTOMER',
    version: 1,
    conversationCount: 0,
    lastConversations: {},
    gsi1pk: allPartition(tenant),
    gsi1sk: c._id,
    ...fields,
    ...nameIndex(tenant, c),
  };
};

const GUARD_PREFIX = { EMAIL: K.CUSTOMER_EMAIL, PHONE: K.CUSTOMER_PHONE, IDENTITY: K.CUSTOMER_IDENTITY } as const satisfies Record<
  UniqueValue['kind'],
  string
>;
export const guardKey = (tenant: Tenant, kind: UniqueValue['kind'], value: string) => ({
  pk: tenantPk(tenant, GUARD_PREFIX[kind], value),
  sk: K.GUARD,
});

const guardItem = (tenant: Tenant, u: UniqueValue, customerId: string) => ({
  ...guardKey(tenant, u.kind, u.value),
  type: 'CUSTOMER_GUARD',
  customerId,
  ...(u.kind === 'IDENTITY'
    ? {}
    : { gsi2pk: searchPartition(tenant, u.kind === 'EMAIL' ? 'email' : 'phone'), gsi2sk: `${u.value}#${customerId}` }),
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
  const keyOf = (u: UniqueValue) => `${u.kind}#${u.value}`;
  const was = before ? uniqueValues(before) : [];
  const is = after ? uniqueValues(after) : [];
  const id = (after ?? before)!._id;
  const released = was.filter((u) => !is.some((v) => keyOf(v) === keyOf(u)));
  const claimed = is.filter((u) => !was.some((v) => keyOf(v) === keyOf(u)));
  return [
    ...released.map((u) => deleteItem(guardKey(tenant, u.kind, u.value), { condition: 'customerId = :id', values: { ':id': id } })),
    ...claimed.map((u) => createItem(guardItem(tenant, u, id), duplicate(u))),
  ];
};

/** The customer with its count of conversations: one Query of its partition reads the customer item and its count's item. */
export const getCustomer = async (tenant: Tenant, id: string): Promise<StoredCustomer | undefined> => {
  const { item: Item, own } = await customerPartition(tenant, id);
  if (!Item) return undefined;
  const onCustomer = (Item.conversationCount as number | undefined) ?? 0;
  return {
    customer: fromItem(Item),
    version: Item.version as number,
    conversationCount: onCustomer + (own?.n ?? 0),
    lastConversations: { ...(Item.lastConversations as Record<string, string> | undefined), ...own?.latest },
    counted: { onCustomer, own: own?.n },
  };
};

/** The customer id owning a unique value, if any. */
export const customerIdBy = async (tenant: Tenant, kind: UniqueValue['kind'], value: string): Promise<string | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: guardKey(tenant, kind, value), ConsistentRead: true }),
  );
  return Item?.customerId as string | undefined;
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
  bumpCounter(tenant, CUSTOMERS_COUNTER, 1),
];

/** The versioned item update for a customer change, keeping the name search entry in step. */
export const customerUpdate = (
  tenant: Tenant,
  version: number,
  before: Customer,
  after: Customer,
  set: Record<string, unknown> = {},
): Write => {
  const index = nameIndex(tenant, after);
  return versionedUpdate(customerKey(tenant, after._id), version, before, after, {
    skip: ['tagIds'],
    set: { ...index, ...set },
    remove: index ? [] : ['gsi2pk', 'gsi2sk'],
  });
};

/** The writes that store `after` over the version read, with the guards its unique values release and claim. */
export const customerChange = (tenant: Tenant, { customer: before, version }: StoredCustomer, after: Customer): Write[] => [
  customerUpdate(tenant, version, before, after),
  ...guardWrites(tenant, before, after),
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
 * The writes that delete the customer as read, its guards and its tag links, and uncount it: conditional on its
 * version, on its having no conversations and the tags read (a concurrent tagging re-runs it), and refused while a
 * lead is linked to it.
 */
export const customerDeletion = (tenant: Tenant, { customer, version, counted }: StoredCustomer, now: Date): Write[] => {
  const tags = customer.tagIds;
  return [
    deleteItem(customerKey(tenant, customer._id), {
      condition: `#v = :v AND ${UNCHANGED_COUNT} AND ${tags.length ? 'size(tagIds) = :n' : 'attribute_not_exists(tagIds)'}`,
      names: { '#v': 'version' },
      values: { ':v': version, ':c': counted.onCustomer, ...(tags.length ? { ':n': tags.length } : {}) },
    }),
    countedRemoval(tenant, customer._id, counted.own, now),
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
    bumpCounter(tenant, CUSTOMERS_COUNTER, -1),
  ];
};

/**
 * The writes that delete the customer as read for its erasure, its unique values' guards and its tag links,
 * and uncount it: conditional on the tags read (a concurrent tagging re-runs it), whatever conversations or
 * leads still name it (the erasure removes those links itself).
 */
export const customerErasure = (tenant: Tenant, { customer, version }: StoredCustomer, now: Date): Write[] => [
  deleteItem(customerKey(tenant, customer._id), {
    condition: '#v = :v',
    names: { '#v': 'version' },
    values: { ':v': version },
  }),
  countedErasure(tenant, customer._id, now),
  ...guardWrites(tenant, customer, undefined),
  ...tagLinkWrites(tenant, 'customer', customer._id, customer.tagIds, -1, now),
  bumpCounter(tenant, CUSTOMERS_COUNTER, -1),
];
