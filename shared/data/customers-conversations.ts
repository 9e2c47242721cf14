import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { collect, queryAll } from './query';
import { createItem, updateItem, type Write } from './transact';
import { customerKey } from './entity-keys';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { customerConversations as counted, countsOnCustomer } from './registry/contacts';

/**
 * A customer's conversations are counted in an item of its own beside it (keys: registry/contacts.ts), so a
 * conversation's create, delete or move writes that small unindexed item instead of the customer item and its two
 * index entries. A customer item may still hold `conversationCount` and `lastConversations` (written before the item
 * existed, and by a customer's first message, which writes the customer item anyway): the totals add up and the
 * item's latest conversation per channel wins.
 *
 * The first count creates the item, once a read found the customer. What keeps a customer deleted after that read
 * from being counted is the item itself: the customer's deletion, merge or erasure turns it into a tombstone (`gone`,
 * expiring after a day) in its own transaction, and every count is conditional on the item being absent (a create)
 * or present and not gone (an update). A count that fails so runs again and finds the customer gone.
 */

/** What a customer's conversations count read: on the customer item (before the item), and on the item if it exists. */
export interface Counted {
  onCustomer: number;
  /** The item's `n`, or undefined when the customer has no item yet. */
  own?: number;
}

/** How long a deleted customer's tombstone outlives it: far longer than any count in flight that read the customer. */
const TOMBSTONE_SECONDS = 86_400;

const countedKey = (tenant: Tenant, customerId: string) => counted.key({ tenant, customerId });

/** The customer's partition in one Query: its item and its count's item (absent, or gone with it, as undefined). */
export const customerPartition = async (tenant: Tenant, customerId: string) => {
  const items = await collect(queryAll({ pk: customerKey(tenant, customerId).pk, consistent: true }));
  const own = items.find((i) => i.sk === K.CUSTOMER_CONVERSATIONS);
  const parsed = own && counted.parse(own);
  return { item: items.find((i) => i.sk === K.CUSTOMER), own: parsed && !parsed.gone ? parsed : undefined };
};

/** The count a customer item kept before its count's item, read alone (the rest of the item is the customers repository's). */
const countOnCustomer = itemCodec(countsOnCustomer);

/** A customer's exact count of its conversations (its conversation list's total): its item's and its customer item's. */
export const customerConversationCount = async (tenant: Tenant, customerId: string): Promise<number> => {
  const { item, own } = await customerPartition(tenant, customerId);
  return (item ? countOnCustomer(item).conversationCount : 0) + (own?.n ?? 0);
};

const noSuchCustomer = () => new Refused('no_such_customer', 'No such customer in this workspace');

/**
 * The writes that count `delta` conversations on the customer (and, with `latest`, make that conversation its latest on
 * its channel): an update of its item, or the item's creation. Refused with `no_such_customer` when the customer is gone,
 * except for an uncount: a customer gone has no count left to lower (a conversation that outlived its customer's
 * erasure under an earlier version is still deleted or moved).
 */
export const customerCounting = async (
  tenant: Tenant,
  customerId: string,
  delta: number,
  latest?: { channel: string; conversationId: string },
): Promise<Write[]> => {
  const { item, own } = await customerPartition(tenant, customerId);
  if (!item && delta < 0) return [];
  if (!item) throw noSuchCustomer();
  const key = countedKey(tenant, customerId);
  if (!own)
    return [
      createItem({ ...key, type: 'CUSTOMER_CONVERSATIONS', n: delta, latest: latest ? { [latest.channel]: latest.conversationId } : {} }),
    ];
  return [
    updateItem(key, `${latest ? 'SET latest.#ch = :id ' : ''}ADD n :d`, {
      names: latest ? { '#ch': latest.channel } : undefined,
      values: { ':d': delta, ...(latest ? { ':id': latest.conversationId } : {}) },
      condition: 'attribute_exists(pk) AND attribute_not_exists(gone)',
    }),
  ];
};

const tombstone = (now: Date) => ({ gone: true, ttl: Math.floor(now.getTime() / 1000) + TOMBSTONE_SECONDS });

/**
 * The write that leaves the customer's tombstone with its deletion or merge, on condition that its item still counts
 * what was read (`own`), or that it still does not exist: a conversation counted meanwhile makes the removal run again.
 */
export const countedRemoval = (tenant: Tenant, customerId: string, own: number | undefined, now: Date): Write => {
  const key = countedKey(tenant, customerId);
  if (own === undefined) return createItem({ ...key, type: 'CUSTOMER_CONVERSATIONS', n: 0, ...tombstone(now) });
  return updateItem(key, 'SET gone = :gone, #ttl = :ttl', {
    names: { '#ttl': 'ttl' },
    values: { ':n': own, ':gone': true, ':ttl': tombstone(now).ttl },
    condition: 'n = :n AND attribute_not_exists(gone)',
  });
};
