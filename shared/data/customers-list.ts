import type { Tenant } from '../domain/auth/tenant';
import type { Customer } from '../domain/contacts/customer';
import type { CustomerSearch } from '../domain/contacts/search';
import { readCounter } from './counters';
import { taggedPage } from './tag-links';
import { batchGet } from './batch-get';
import { customerKey } from './entity-keys';
import { countItems, queryPage, type PageRequest, type Partition } from './query';
import { allPartition, CUSTOMERS_COUNTER, fromItem, searchPartition } from './customers';

const byIds = async (tenant: Tenant, ids: string[]) => (await batchGet(ids.map((id) => customerKey(tenant, id)))).map(fromItem);

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
  if (search.by !== 'all') {
    const partition: Partition = { index: 'gsi2', pk: searchPartition(tenant, search.by), skPrefix: search.prefix };
    const [result, total] = await Promise.all([queryPage(partition, page), countItems(partition)]);
    const customers =
      search.by === 'name'
        ? result.items.map(fromItem)
        : await byIds(
            tenant,
            result.items.map((i) => i.customerId as string),
          );
    return { customers, total, nextCursor: result.nextCursor };
  }
  const [result, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: allPartition(tenant), newestFirst: true }, page),
    readCounter(tenant, CUSTOMERS_COUNTER),
  ]);
  return { customers: result.items.map(fromItem), total, nextCursor: result.nextCursor };
};
