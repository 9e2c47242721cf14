import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { customerKey } from './entity-keys';
import { conditionCheck, createItem, deleteItem, updateItem, type Write } from './transact';
import { customerConversations as counted } from './registry/contacts';

/**
 * A customer's conversations are counted in an item of its own beside it (keys: registry/contacts.ts), so a
 * conversation's create, delete or move writes that small unindexed item instead of the customer item and its two
 * index entries. A customer item may still hold `conversationCount` and `lastConversations` (written before the item
 * existed, and by a customer's first message, which writes the customer item anyway): the totals add up and the
 * item's latest conversation per channel wins. The item is created by the first count that finds it missing, with a
 * check that the customer exists; once it exists it is deleted only with the customer, so its existence stands for
 * the customer's.
 */

/** What a customer's conversations count read: on the customer item (before the item), and on the item if it exists. */
export interface Counted {
  onCustomer: number;
  /** The item's `n`, or undefined when the customer has no item yet. */
  own?: number;
}

export const countedKey = (tenant: Tenant, customerId: string) => counted.key({ tenant, customerId });

/** The item's count and latest conversations, from a stored item. */
export const readCounted = (item: Record<string, unknown> | undefined) => (item ? counted.parse(item) : undefined);

const countOfCustomer = async (tenant: Tenant, customerId: string) => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: countedKey(tenant, customerId), ConsistentRead: true }),
  );
  return readCounted(Item);
};

const noSuchCustomer = () => new Refused('no_such_customer', 'No such customer in this workspace');

/**
 * The writes that count `delta` conversations on the customer (and, with `latest`, make that conversation its latest on
 * its channel): an update of its item when it exists, else the item's creation beside a check that the customer exists
 * (two creates racing to it: one loses and runs again). Refused with `no_such_customer` when the customer is gone.
 */
export const customerCounting = async (
  tenant: Tenant,
  customerId: string,
  delta: number,
  latest?: { channel: string; conversationId: string },
): Promise<Write[]> => {
  const key = countedKey(tenant, customerId);
  if (await countOfCustomer(tenant, customerId)) {
    return [
      updateItem(key, `${latest ? 'SET latest.#ch = :id ' : ''}ADD n :d`, {
        names: latest ? { '#ch': latest.channel } : undefined,
        values: { ':d': delta, ...(latest ? { ':id': latest.conversationId } : {}) },
        condition: 'attribute_exists(pk)',
        onFail: noSuchCustomer,
      }),
    ];
  }
  return [
    conditionCheck(customerKey(tenant, customerId), { condition: 'attribute_exists(pk)', onFail: noSuchCustomer }),
    createItem({ ...key, type: 'CUSTOMER_CONVERSATIONS', n: delta, latest: latest ? { [latest.channel]: latest.conversationId } : {} }),
  ];
};

/**
 * The write that removes the customer's item with the customer (its deletion or merge), on condition that it still
 * counts what was read (`own`), or that it still does not exist: a conversation counted meanwhile makes it run again.
 */
export const countedRemoval = (tenant: Tenant, customerId: string, own: number | undefined): Write => {
  const key = countedKey(tenant, customerId);
  return own === undefined
    ? conditionCheck(key, { condition: 'attribute_not_exists(pk)' })
    : deleteItem(key, { condition: 'n = :n', values: { ':n': own } });
};

/** The erasure's removal of the item, whatever it counts (the erasure deleted the customer's conversations first). */
export const countedErasure = (tenant: Tenant, customerId: string): Write => deleteItem(countedKey(tenant, customerId));
