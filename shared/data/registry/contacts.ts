import { entity } from './define';

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
