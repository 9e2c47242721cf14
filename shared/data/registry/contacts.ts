import * as z from 'zod';
import { contact as contactView } from '../../views/contacts';
import { built } from '../../domain/built';
import { declare, keysOf } from './define';

/** What a customer item kept of its conversations before its count's item: read with it, and alone by that item's repository. */
export const countsOnCustomer = /* @__PURE__ */ built(() =>
  z.object({
    conversationCount: z.number().default(0),
    lastConversations: z.record(z.string(), z.string()).default({}),
  }),
);

/** A customer item's own attributes: its view, its version and those counts. */
const customerItem = /* @__PURE__ */ built(() => contactView.extend({ version: z.number(), ...countsOnCustomer.shape }));

const customerTemplates = {
  pk: 'WS#<tenant>#CUSTOMER#<id>',
  sk: 'CUSTOMER',
  gsi1pk: 'WS#<tenant>#CUSTOMERS',
  gsi1sk: '<id>',
  gsi2pk: 'WS#<tenant>#CUSTOMER_SEARCH#name',
  gsi2sk: '<folded>#<id>',
  gsi3pk: 'WS#<tenant>#CUSTOMERS',
  gsi3sk: '<id>',
  gsi4pk: 'WS#<tenant>#CUSTOMER_SEARCH#name',
  gsi4sk: '<folded>#<id>',
} as const;

/** A customer's keys alone, for the areas that only address a customer (a conversation reads its customer's partition). */
export const customerKeys = /* @__PURE__ */ keysOf(customerTemplates, 'Customer');

export const customer = /* @__PURE__ */ declare({
  name: 'Customer',
  itemTypes: ['CUSTOMER'],
  personal: ['name', 'email', 'phone', 'attributes', 'gsi2sk', 'gsi4sk'],
  about:
    'A customer (versioned), listed newest first and searchable by name prefix. Its list and name search entries are keys only (gsi3, gsi4); ' +
    'a customer stored before has them in gsi1 and gsi2 (`ALL`) until its next change.',
  prefixes: ['CUSTOMER', 'CUSTOMERS', 'CUSTOMER_SEARCH'],
  keys: customerTemplates,
  /** Tag ids are a String Set on the item (read into the array by the repository). */
  schema: () => customerItem,
  patterns: [
    { read: 'customer by id', by: 'pk=<tenant>#CUSTOMER#<id> sk=CUSTOMER' },
    { read: 'all customers, newest first', by: 'gsi3pk=<tenant>#CUSTOMERS', index: 'gsi3' },
    { read: 'customers by name prefix', by: 'gsi4pk=<tenant>#CUSTOMER_SEARCH#name gsi4sk begins_with <prefix>', index: 'gsi4' },
    { read: 'all customers stored before, newest first', by: 'gsi1pk=<tenant>#CUSTOMERS', index: 'gsi1' },
    {
      read: 'customers stored before by name prefix',
      by: 'gsi2pk=<tenant>#CUSTOMER_SEARCH#name gsi2sk begins_with <prefix>',
      index: 'gsi2',
    },
  ],
  tradeOff:
    "Its list and name search entries are keys only: a change that keeps its name (a message's `lastActivityAt`, its conversation count, an edit) writes no entry, where the two `ALL` entries were rewritten with the item (2 units, 4 over 1 KB), and its creation writes 2 small entries instead of two copies. A page reads its customers by key (one BatchGetItem). A customer stored before keeps its gsi1 and gsi2 entries until its next versioned change moves it over; the list and the search read both (see [the messaging write path](#the-messaging-write-path)).",
});

/** A channel identity's guard: a customer unique value (below) whose `<value>` is the channel and the identifier. */
export const identityGuardKeys = /* @__PURE__ */ keysOf(
  { pk: 'WS#<tenant>#CUSTOMER_IDENTITY#<channel>#<identifier>', sk: 'GUARD' },
  'Customer identity guard',
);

export const customerGuard = /* @__PURE__ */ declare({
  name: 'Customer unique value',
  itemTypes: ['CUSTOMER_GUARD'],
  personal: ['pk', 'gsi2sk'],
  about:
    'Holds an email, phone or channel identity for one customer (`<kind>` is `CUSTOMER_EMAIL`, `CUSTOMER_PHONE` or `CUSTOMER_IDENTITY`, whose `<value>` is `<channel>#<identifier>`); email and phone are searchable.',
  prefixes: ['CUSTOMER_EMAIL', 'CUSTOMER_PHONE', 'CUSTOMER_IDENTITY'],
  keys: {
    pk: 'WS#<tenant>#<kind>#<value>',
    sk: 'GUARD',
    gsi2pk: 'WS#<tenant>#CUSTOMER_SEARCH#<field>',
    gsi2sk: '<value>#<customerId>',
  },
  schema: () => z.object({ customerId: z.string() }),
  patterns: [
    { read: 'customer by email, phone or identity', by: 'pk=<tenant>#CUSTOMER_EMAIL|CUSTOMER_PHONE|CUSTOMER_IDENTITY#<value> sk=GUARD' },
    {
      read: 'customers by email or phone prefix',
      by: 'gsi2pk=<tenant>#CUSTOMER_SEARCH#email|phone gsi2sk begins_with <prefix>',
      index: 'gsi2',
    },
  ],
});

export const customerConversations = /* @__PURE__ */ declare({
  name: 'Customer conversation count',
  itemTypes: ['CUSTOMER_CONVERSATIONS'],
  personal: [],
  about:
    "A customer's count of its conversations (`n`, the total of its conversation list) and its latest conversation per channel, in the customer's partition: " +
    'a conversation counts here instead of rewriting the customer item and its two index entries. Added to what a customer item counted before. ' +
    "Left as a tombstone (`gone`, expiring after a day) by the customer's deletion, merge or erasure, so no count can revive it (see [the messaging write path](#the-messaging-write-path)).",
  prefixes: ['CUSTOMER_CONVERSATIONS'],
  keys: { pk: 'WS#<tenant>#CUSTOMER#<customerId>', sk: 'CUSTOMER_CONVERSATIONS' },
  patterns: [{ read: "a customer's count and latest conversations, with the customer", by: 'pk=<tenant>#CUSTOMER#<id>' }],
  schema: () => z.object({ n: z.number().default(0), latest: z.record(z.string(), z.string()).default({}), gone: z.boolean().optional() }),
});
