import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { uniqueValues, type Customer, type UniqueValue } from '../domain/contacts/customer';
import { tagCounters, tagLinks } from './tag-links';
import { deleteItem, updateItem, type Write } from './transact';
import { customersCounted, customerUpdate, guardKey, guardSearch, noLeads, UNCHANGED_COUNT, type StoredCustomer } from './customers';
import { countedRemoval } from './customers-conversations';
import { customerKey } from './entity-keys';

/** Unique values the mergee gives up are released; those the base takes over change owner. */
const guardHandover = (tenant: Tenant, base: Customer, mergee: Customer, result: Customer): Write[] => {
  const keyOf = (u: UniqueValue) => guardKey(tenant, u).pk;
  const kept = new Set(uniqueValues(result).map(keyOf));
  const baseHad = new Set(uniqueValues(base).map(keyOf));
  const ownedByMergee = 'customerId = :from';
  return uniqueValues(mergee)
    .filter((u) => !baseHad.has(keyOf(u)))
    .map((u) => {
      const key = guardKey(tenant, u);
      if (!kept.has(keyOf(u))) return deleteItem(key, { condition: ownedByMergee, values: { ':from': mergee._id } });
      const search = guardSearch(tenant, u, base._id);
      return updateItem(key, `SET customerId = :to${u.kind === 'IDENTITY' ? '' : ', gsi2sk = :sk'}`, {
        condition: ownedByMergee,
        values: { ':from': mergee._id, ':to': base._id, ...('gsi2sk' in search ? { ':sk': search.gsi2sk } : {}) },
      });
    });
};

/**
 * The writes that merge the mergee (as read) into the base (as read) as `result`: the base takes its gaps, unique
 * values, tags and attributes, the mergee is deleted (conditional on its version and on its having no
 * conversations left) and uncounted, refused if a lead was linked to it meanwhile.
 */
export const mergeWrites = (tenant: Tenant, base: StoredCustomer, mergee: StoredCustomer, result: Customer, now: Date): Write[] => {
  const newTags = mergee.customer.tagIds.filter((t) => !base.customer.tagIds.includes(t));
  return [
    customerUpdate(tenant, base, base.customer, result, {
      ...(result.tagIds.length ? { tagIds: new Set(result.tagIds) } : {}),
      lastConversations: { ...mergee.lastConversations, ...base.lastConversations },
    }),
    deleteItem(customerKey(tenant, mergee.customer._id), {
      condition: `#v = :v AND ${UNCHANGED_COUNT}`,
      names: { '#v': 'version' },
      values: { ':v': mergee.version, ':c': mergee.counted.onCustomer },
    }),
    countedRemoval(tenant, mergee.customer._id, mergee.counted.own, now),
    ...guardHandover(tenant, base.customer, mergee.customer, result),
    // A tag moving to the base keeps its count; a tag both carried loses one tagged customer.
    ...tagLinks(tenant, 'customer', mergee.customer._id, mergee.customer.tagIds, -1, now),
    ...tagLinks(tenant, 'customer', base.customer._id, newTags, 1, now),
    ...tagCounters(
      tenant,
      'customer',
      mergee.customer.tagIds.filter((t) => base.customer.tagIds.includes(t)),
      -1,
    ),
    noLeads(
      tenant,
      mergee.customer._id,
      () => new Refused('merge_raced', 'A lead was linked to the merged customer during the merge; repeat the merge to finish it'),
    ),
    customersCounted(tenant, -1),
  ];
};
