import * as z from 'zod';
import { declare, entity } from './define';

export const customer = entity({
  name: 'Customer',
  itemTypes: ['CUSTOMER'],
  personal: ['name', 'email', 'phone', 'attributes', 'gsi2sk'],
  about: 'A customer, listed newest first and searchable by name prefix.',
  prefixes: ['CUSTOMER', 'CUSTOMERS', 'CUSTOMER_SEARCH'],
  keys: {
    pk: '<tenant>#CUSTOMER#<id>',
    sk: 'CUSTOMER',
    gsi1pk: '<tenant>#CUSTOMERS',
    gsi1sk: '<id>',
    gsi2pk: '<tenant>#CUSTOMER_SEARCH#name',
    gsi2sk: '<folded name>#<id>',
  },
  patterns: [
    { read: 'customer by id', by: 'pk=<tenant>#CUSTOMER#<id> sk=CUSTOMER' },
    { read: 'all customers, newest first', by: 'gsi1pk=<tenant>#CUSTOMERS', index: 'gsi1' },
    { read: 'customers by name prefix', by: 'gsi2pk=<tenant>#CUSTOMER_SEARCH#name gsi2sk begins_with <prefix>', index: 'gsi2' },
  ],
});

export const customerGuard = entity({
  name: 'Customer unique value',
  itemTypes: ['CUSTOMER_GUARD'],
  personal: ['pk', 'gsi2sk'],
  about: 'Holds an email, phone or channel identity for one customer; email and phone are searchable.',
  prefixes: ['CUSTOMER_EMAIL', 'CUSTOMER_PHONE', 'CUSTOMER_IDENTITY'],
  keys: {
    pk: '<tenant>#CUSTOMER_EMAIL|CUSTOMER_PHONE|CUSTOMER_IDENTITY#<value>',
    sk: 'GUARD',
    gsi2pk: '<tenant>#CUSTOMER_SEARCH#email|phone',
    gsi2sk: '<value>#<customer id>',
  },
  patterns: [
    { read: 'customer by email, phone or identity', by: 'pk=<tenant>#CUSTOMER_EMAIL|CUSTOMER_PHONE|CUSTOMER_IDENTITY#<value> sk=GUARD' },
    {
      read: 'customers by email or phone prefix',
      by: 'gsi2pk=<tenant>#CUSTOMER_SEARCH#<field> gsi2sk begins_with <prefix>',
      index: 'gsi2',
    },
  ],
});

export const customerConversations = declare({
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
  schema: z.object({ n: z.number().default(0), latest: z.record(z.string(), z.string()).default({}), gone: z.boolean().optional() }),
});
