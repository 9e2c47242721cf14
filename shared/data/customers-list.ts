import { ValidationError } from '../domain/errors';
import { normalizeEmail, normalizeName, normalizePhone, type Customer } from '../domain/contacts/customer';
import { readCounter } from './counters';
import { taggedCounter } from './tag-links';
import { batchGet } from './batch-get';
import { customerKey, tagLinkKey } from './entity-keys';
import { countItems, queryPage, type PageRequest, type Partition } from './query';
import { allPartition, CUSTOMERS_COUNTER, fromItem, searchPartition } from './customers';

export interface CustomerFilters {
  name?: string;
  email?: string;
  phone?: string;
  tagId?: string;
}

const byIds = async (ws: string, ids: string[]) => (await batchGet(ids.map((id) => customerKey(ws, id)))).map(fromItem);

/**
 * One filter at a time: a case- and accent-insensitive prefix of the name, a case-insensitive prefix of
 * the email, a prefix of the phone's digits, or a tag. Without a filter: all customers, newest first.
 */
export const listCustomers = async (ws: string, f: CustomerFilters, page: PageRequest): Promise<{ customers: Customer[]; total: number; nextCursor?: string }> => {
  const given = (['name', 'email', 'phone', 'tagId'] as const).filter((k) => f[k] !== undefined);
  if (given.length > 1) throw new ValidationError(given.slice(1).map((path) => ({ path, message: 'Only one search or filter at a time' })));
  if (f.tagId) {
    const [result, total] = await Promise.all([
      queryPage({ pk: tagLinkKey(ws, f.tagId, 'customer', '').pk, skPrefix: 'customer#', newestFirst: true }, page),
      readCounter(ws, taggedCounter(f.tagId, 'customer')),
    ]);
    return { customers: await byIds(ws, result.items.map((i) => (i.sk as string).slice('customer#'.length))), total, nextCursor: result.nextCursor };
  }
  if (f.name !== undefined || f.email !== undefined || f.phone !== undefined) {
    const field = f.name !== undefined ? 'name' : f.email !== undefined ? 'email' : 'phone';
    const prefix = field === 'name' ? normalizeName(f.name!) : field === 'email' ? normalizeEmail(f.email!) : normalizePhone(f.phone!);
    const partition: Partition = { index: 'gsi2', pk: searchPartition(ws, field), skPrefix: prefix };
    const [result, total] = await Promise.all([queryPage(partition, page), countItems(partition)]);
    const customers = field === 'name' ? result.items.map(fromItem) : await byIds(ws, result.items.map((i) => i.customerId as string));
    return { customers, total, nextCursor: result.nextCursor };
  }
  const [result, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: allPartition(ws), newestFirst: true }, page),
    readCounter(ws, CUSTOMERS_COUNTER),
  ]);
  return { customers: result.items.map(fromItem), total, nextCursor: result.nextCursor };
};
