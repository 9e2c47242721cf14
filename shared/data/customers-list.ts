import type { Tenant } from '../domain/auth/tenant';
import { normalizeName, type Customer } from '../domain/contacts/customer';
import type { CustomerSearch } from '../domain/contacts/search';
import * as z from 'zod';
import { taggedPage } from './tag-links';
import { batchGet } from './batch-get';
import { customerKey } from './entity-keys';
import { countItems, queryPage, unionPage, type PageRequest, type Partition } from './query';
import type { IndexName } from './table';
import { allPartition, customersTotal, fromItem, idOfEntry, namePartition, searchPartition } from './customers';

const byIds = async (tenant: Tenant, ids: string[], consistent = true) =>
  (
    await batchGet(
      [...new Set(ids)].map((id) => customerKey(tenant, id)),
      { consistent },
    )
  ).map(fromItem);

/**
 * Where a list's entries are: the customers' keys-only entries (gsi3, gsi4) and those of the customers stored before
 * (gsi1, gsi2), first, whose cursor shape every page keeps. Both share the partition key and the order.
 */
const sourcesOf = (pk: string, [before, now]: readonly [IndexName, IndexName], more: Omit<Partition, 'pk'>): [Partition, Partition] => [
  { ...more, index: before, pk },
  { ...more, index: now, pk },
];

/**
 * One page of the customers a list or a name search holds, read by key from its entries (eventually consistent, as
 * the index was); an entry that no longer matches its customer (deleted, or renamed, a moment ago) is left out.
 */
const entriesPage = async (tenant: Tenant, sources: [Partition, Partition], page: PageRequest, matches: (c: Customer) => boolean) => {
  const result = await unionPage(sources, page);
  const customers = await byIds(tenant, result.items.map(idOfEntry), false);
  return { customers: customers.filter(matches), nextCursor: result.nextCursor };
};

/** One page of the customers a search selects, newest first unless searching by prefix, with its exact total. */
export const customersPage = async (
  tenant: Tenant,
  search: CustomerSearch,
  page: PageRequest,
): Promise<{ customers: Customer[]; total: number; nextCursor?: string }> => {
  if (search.by === 'tag') {
    const { ids, total, nextCursor } = await taggedPage(tenant, search.tagId, 'customer', page);
    return { customers: await byIds(tenant, ids), total, nextCursor };
  }
  if (search.by === 'name') {
    const sources = sourcesOf(namePartition(tenant), ['gsi2', 'gsi4'], { skPrefix: search.prefix });
    const [result, totals] = await Promise.all([
      entriesPage(tenant, sources, page, (c) => normalizeName(c.name ?? '').startsWith(search.prefix)),
      Promise.all(sources.map(countItems)),
    ]);
    return { ...result, total: totals.reduce((a, b) => a + b, 0) };
  }
  if (search.by !== 'all') {
    const partition: Partition = { index: 'gsi2', pk: searchPartition(tenant, search.by), skPrefix: search.prefix };
    const [result, total] = await Promise.all([queryPage(partition, page), countItems(partition)]);
    const customers = await byIds(
      tenant,
      result.items.map((i) => z.string().parse(i.customerId)),
    );
    return { customers, total, nextCursor: result.nextCursor };
  }
  const [result, total] = await Promise.all([
    entriesPage(tenant, sourcesOf(allPartition(tenant), ['gsi1', 'gsi3'], { newestFirst: true }), page, () => true),
    customersTotal(tenant),
  ]);
  return { ...result, total };
};
