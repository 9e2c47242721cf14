import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { mergeCustomers as merged, uniqueValues, type Customer, type UniqueValue } from '../domain/contacts/customer';
import { bumpCounter } from './counters';
import { lostRace, retryOnConflict } from './retry';
import { tagCounters, tagLinks } from './tag-links';
import { deleteItem, MAX_TRANSACTION_WRITES, transact, updateItem, type Write } from './transact';
import { contactEvent, customerUpdate, CUSTOMERS_COUNTER, guardKey, noLeads, requireCustomer, searchPartition } from './customers';
import { customerKey } from './entity-keys';
import { diff } from '../events/envelope';

const keyOf = (u: UniqueValue) => `${u.kind}#${u.value}`;

/** Unique values the mergee gives up are released; those the base takes over change owner. */
const guardHandover = (tenant: Tenant, base: Customer, mergee: Customer, result: Customer): Write[] => {
  const kept = new Set(uniqueValues(result).map(keyOf));
  const baseHad = new Set(uniqueValues(base).map(keyOf));
  const ownedByMergee = 'customerId = :from';
  return uniqueValues(mergee)
    .filter((u) => !baseHad.has(keyOf(u)))
    .map((u) => {
      const key = guardKey(tenant, u.kind, u.value);
      if (!kept.has(keyOf(u))) return deleteItem(key, { condition: ownedByMergee, values: { ':from': mergee._id } });
      const search =
        u.kind === 'IDENTITY'
          ? {}
          : { gsi2pk: searchPartition(tenant, u.kind === 'EMAIL' ? 'email' : 'phone'), gsi2sk: `${u.value}#${base._id}` };
      return updateItem(key, `SET customerId = :to${u.kind === 'IDENTITY' ? '' : ', gsi2sk = :sk'}`, {
        condition: ownedByMergee,
        values: { ':from': mergee._id, ':to': base._id, ...('gsi2sk' in search ? { ':sk': search.gsi2sk } : {}) },
      });
    });
};

/**
 * Once the mergee's conversations and leads have moved: one transaction fills the base's gaps from the mergee,
 * hands over its unique values, tags and attributes, deletes it and writes `customer.contact.merged`.
 */
export const completeMerge = (tenant: Tenant, baseId: string, mergeeId: string, now: Date) =>
  retryOnConflict(async () => {
    const [base, mergee] = await Promise.all([requireCustomer(tenant, baseId), requireCustomer(tenant, mergeeId)]);
    const result = merged(base.customer, mergee.customer, now);
    const newTags = mergee.customer.tagIds.filter((t) => !base.customer.tagIds.includes(t));
    const { updatedAt: _b, ...before } = base.customer;
    const { updatedAt: _a, ...after } = result;
    const writes = [
      customerUpdate(tenant, base.version, base.customer, result, {
        ...(result.tagIds.length ? { tagIds: new Set(result.tagIds) } : {}),
        lastConversations: { ...mergee.lastConversations, ...base.lastConversations },
      }),
      deleteItem(customerKey(tenant, mergeeId), {
        condition: '#v = :v AND (attribute_not_exists(conversationCount) OR conversationCount = :zero)',
        names: { '#v': 'version' },
        values: { ':v': mergee.version, ':zero': 0 },
      }),
      ...guardHandover(tenant, base.customer, mergee.customer, result),
      // A tag moving to the base keeps its count; a tag both carried loses one tagged customer.
      ...tagLinks(tenant, 'customer', mergeeId, mergee.customer.tagIds, -1, now),
      ...tagLinks(tenant, 'customer', baseId, newTags, 1, now),
      ...tagCounters(
        tenant,
        'customer',
        mergee.customer.tagIds.filter((t) => base.customer.tagIds.includes(t)),
        -1,
      ),
      noLeads(
        tenant,
        mergeeId,
        () => new Refused('merge_raced', 'A lead was linked to the merged customer during the merge; repeat the merge to finish it'),
      ),
      bumpCounter(tenant, CUSTOMERS_COUNTER, -1),
      contactEvent('customer.contact.merged', tenant, result, now, {
        data: { mergedContact: mergee.customer },
        changes: diff(before, after),
      }),
    ];
    if (writes.length > MAX_TRANSACTION_WRITES) {
      throw new Refused('merge_too_large', 'Too many tags and identities to merge in one step; detach some tags from the mergee first', {
        tags: mergee.customer.tagIds.length,
        identities: mergee.customer.identities.length,
      });
    }
    await transact(writes, lostRace);
    return result;
  });
