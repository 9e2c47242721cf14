import type { Tenant } from '../domain/auth/tenant';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { unpackText } from '../packed-text';
import { eventPayload } from './outbox';
import { outboxEvent } from './registry/requests';
import { countItems, queryAll, queryPage, type PageRequest, type Partition } from './query';

/** Which event types a read passes: exact names and type prefixes (at least one of either). */
export interface TypeFilter {
  exact: readonly string[];
  prefixes: readonly string[];
}

/** A FilterExpression on `eventType`: a Query still reads what it passes over, so a listing narrows by time first. */
const typeCondition = ({ exact, prefixes }: TypeFilter): Partition['filter'] => {
  const values: Record<string, string> = {};
  const terms: string[] = [];
  if (exact.length) {
    for (const [i, t] of exact.entries()) values[`:t${i}`] = t;
    terms.push(`#type IN (${exact.map((_, i) => `:t${i}`).join(', ')})`);
  }
  prefixes.forEach((p, i) => {
    values[`:p${i}`] = p;
    terms.push(`begins_with(#type, :p${i})`);
  });
  return { expression: terms.join(' OR '), names: { '#type': 'eventType' }, values };
};

const logPk = (tenant: Tenant) => outboxEvent.build('gsi2pk', { tenant });
const eventIdOf = (item: Record<string, unknown>) => outboxEvent.read('gsi2sk', item.gsi2sk).eventId;

const partitionOf = (tenant: Tenant, bounds: readonly [string, string], types: TypeFilter, newestFirst: boolean): Partition => ({
  index: 'gsi2',
  pk: logPk(tenant),
  skBetween: bounds,
  newestFirst,
  filter: typeCondition(types),
});

const envelopeOf = (item: Record<string, unknown>) => JSON.parse(unpackText(item, 'payload')!) as EventEnvelope;

export interface EventsRead {
  events: EventEnvelope[];
  total: number;
  nextCursor?: string;
}

const nothing = (types: TypeFilter, bounds: readonly [string, string]) =>
  (types.exact.length === 0 && types.prefixes.length === 0) || bounds[0] > bounds[1];

/**
 * One page of a tenant's events log between two event ids (inclusive), newest first or oldest first, with
 * the exact number of matching events, counted key-only (a cost that grows with the matches in the range).
 */
export const readEvents = async (
  tenant: Tenant,
  bounds: readonly [string, string],
  types: TypeFilter,
  order: 'newest' | 'oldest',
  page: PageRequest,
): Promise<EventsRead> => {
  if (nothing(types, bounds)) return { events: [], total: 0 };
  const partition = partitionOf(tenant, bounds, types, order === 'newest');
  const [read, total] = await Promise.all([queryPage(partition, page), countItems(partition)]);
  return { events: read.items.map(envelopeOf), total, nextCursor: read.nextCursor };
};

/** Every event of the log between two ids, oldest first, as stored (the exact bytes webhooks send): a replay. */
export async function* replayEvents(
  tenant: Tenant,
  bounds: readonly [string, string],
  types: TypeFilter,
): AsyncGenerator<{ eventId: string; payload: string }> {
  if (nothing(types, bounds)) return;
  for await (const item of queryAll(partitionOf(tenant, bounds, types, false))) {
    yield { eventId: eventIdOf(item), payload: unpackText(item, 'payload')! };
  }
}

/** One event of the tenant by id, or undefined (another tenant's event, or none, or a stored ping body). */
export const readEvent = async (tenant: Tenant, eventId: string): Promise<EventEnvelope | undefined> => {
  const payload = await eventPayload(eventId);
  if (!payload) return undefined;
  const envelope = JSON.parse(payload) as EventEnvelope;
  return envelopeTenant(envelope) === tenant && envelope.eventType !== 'webhook.ping' ? envelope : undefined;
};

/** The ids of the tenant's stored events whose payload mentions one of `needles` (the whole log: it lives 30 days). */
export const eventsNaming = async (tenant: Tenant, needles: readonly string[]): Promise<string[]> => {
  const ids: string[] = [];
  for await (const item of queryAll({ index: 'gsi2', pk: logPk(tenant) })) {
    const payload = unpackText(item, 'payload')!;
    if (needles.some((n) => payload.includes(n))) ids.push(eventIdOf(item));
  }
  return ids;
};
