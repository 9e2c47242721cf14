import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { ValidationError } from '../domain/errors';
import { normalizeEmail, normalizeName, normalizePhone, type Customer } from '../domain/contacts/customer';
import { readCounter } from './counters';
import { batchGet } from './batch-get';
import { customerKey, tagLinkKey } from './entity-keys';
import { queryPage, type PageRequest, type Partition } from './query';
import { allPartition, CUSTOMERS_COUNTER, fromItem, searchPartition } from './customers';

export interface CustomerFilters {
  name?: string;
  email?: string;
  phone?: string;
  tagId?: string;
}

/** Matches of a search prefix, counted key-only: the cost grows with the matches, never with the workspace. */
const countPrefix = async (partition: Partition): Promise<number> => {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        IndexName: partition.index,
        KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :sk)',
        ExpressionAttributeValues: { ':pk': partition.pk, ':sk': partition.skPrefix },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    total += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return total;
};

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
      readCounter(ws, `tagged:${f.tagId}:customer`),
    ]);
    return { customers: await byIds(ws, result.items.map((i) => (i.sk as string).slice('customer#'.length))), total, nextCursor: result.nextCursor };
  }
  if (f.name !== undefined || f.email !== undefined || f.phone !== undefined) {
    const field = f.name !== undefined ? 'name' : f.email !== undefined ? 'email' : 'phone';
    const prefix = field === 'name' ? normalizeName(f.name!) : field === 'email' ? normalizeEmail(f.email!) : normalizePhone(f.phone!);
    const partition: Partition = { index: 'gsi2', pk: searchPartition(ws, field), skPrefix: prefix };
    const [result, total] = await Promise.all([queryPage(partition, page), countPrefix(partition)]);
    const customers = field === 'name' ? result.items.map(fromItem) : await byIds(ws, result.items.map((i) => i.customerId as string));
    return { customers, total, nextCursor: result.nextCursor };
  }
  const [result, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: allPartition(ws), newestFirst: true }, page),
    readCounter(ws, CUSTOMERS_COUNTER),
  ]);
  return { customers: result.items.map(fromItem), total, nextCursor: result.nextCursor };
};
