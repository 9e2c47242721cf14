import * as z from 'zod';
import type { Tenant } from '../domain/auth/tenant';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { unpackText } from '../packed-text';
import { Refused } from '../domain/refusal';
import { eventPayload } from './outbox';
import { eventBody, outboxEvent } from './registry/requests';
import { countItems, cursorAfter, mergedRows, queryAll, queryPage, type PageRequest, type Partition } from './query';

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

/**
 * The two parts of a tenant's events log: its partition, and the gsi2 entries of the events stored before the log
 * moved there (gone 30 days after, with their items). An event is in one of them; both are ordered by event id.
 */
interface LogPart {
  partition: Partition;
  idOf: (item: Record<string, unknown>) => string;
  /** The stored key of the event `eventId` in this part, whether it exists or not: where a page resumes after it. */
  keyOf: (eventId: string) => Record<string, string>;
}

const logParts = (tenant: Tenant, bounds?: readonly [string, string], types?: TypeFilter, newestFirst = false): LogPart[] => {
  const narrowed = { skBetween: bounds, newestFirst, filter: types && typeCondition(types) };
  const logPk = outboxEvent.build('pk', { tenant });
  return [
    {
      partition: { pk: logPk, ...narrowed },
      idOf: (item) => outboxEvent.read('sk', item.sk).eventId,
      keyOf: (eventId) => outboxEvent.key({ tenant, eventId }),
    },
    {
      partition: { index: 'gsi2', pk: eventBody.build('gsi2pk', { tenant }), ...narrowed },
      idOf: (item) => eventBody.read('gsi2sk', item.gsi2sk).eventId,
      keyOf: (eventId) => ({ ...eventBody.key({ eventId }), ...eventBody.index('gsi2', { tenant, eventId }) }),
    },
  ];
};

const EVENT_ID = /^[0-9a-f]{24}$/;

const parsedCursor = (cursor: string): Record<string, unknown> => {
  try {
    const key = z.record(z.string(), z.unknown()).safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return key.success ? key.data : {};
  } catch {
    return {};
  }
};

/**
 * The event id a page stopped at. A cursor is the log partition's key of that event; one issued before the log
 * moved is the gsi2 key of an event stored before, and resumes the same way. Another tenant's cursor is refused.
 */
const cursorId = (cursor: string, tenant: Tenant): string => {
  const key = parsedCursor(cursor);
  const part = logParts(tenant)['gsi2pk' in key ? 1 : 0]!;
  const id = 'gsi2pk' in key ? key.gsi2sk : key.sk;
  const exact = (expected: Record<string, string>) =>
    Object.keys(key).length === Object.keys(expected).length && Object.entries(expected).every(([name, value]) => key[name] === value);
  if (typeof id !== 'string' || !EVENT_ID.test(id) || !exact(part.keyOf(id)))
    throw new Refused('invalid_cursor', 'Invalid or expired cursor');
  return id;
};

/**
 * A page of the log merged from its parts, in id order: each part's first `limit` from the cursor on (page N reads
 * N·limit of each); the cursor is the last event's key in the log partition.
 */
const mergedPage = async (tenant: Tenant, parts: LogPart[], page: PageRequest) => {
  const after = page.cursor ? cursorId(page.cursor, tenant) : undefined;
  const read = parts.map((part) => async (wanted: number) => {
    const cursor = after && cursorAfter(part.partition, part.keyOf(after));
    const { items, nextCursor } = await queryPage(part.partition, { limit: wanted, cursor });
    return { more: !!nextCursor, rows: items.map((item) => ({ id: part.idOf(item), item })) };
  });
  const newestFirst = parts[0]!.partition.newestFirst;
  const { rows, more } = await mergedRows(page, !!after, read, (a, b) => (a.id < b.id === newestFirst ? 1 : -1));
  const last = rows.at(-1);
  return {
    items: rows.map((r) => r.item),
    nextCursor: more && last ? cursorAfter(parts[0]!.partition, parts[0]!.keyOf(last.id)) : undefined,
  };
};

/** Every event of both parts, in id order (oldest first): each part read page by page, merged as they go. */
async function* mergedAll(parts: LogPart[]): AsyncGenerator<{ eventId: string; item: Record<string, unknown> }> {
  const readers = parts.map((part) => {
    const items = queryAll(part.partition);
    return { part, items, head: undefined as Record<string, unknown> | undefined, done: false };
  });
  const advance = async (r: (typeof readers)[number]) => {
    const next = await r.items.next();
    r.done = !!next.done;
    r.head = next.done ? undefined : next.value;
  };
  await Promise.all(readers.map(advance));
  for (;;) {
    const live = readers.filter((r) => !r.done);
    if (!live.length) return;
    const first = live.reduce((a, b) => (b.part.idOf(b.head!) < a.part.idOf(a.head!) ? b : a));
    yield { eventId: first.part.idOf(first.head!), item: first.head! };
    await advance(first);
  }
}

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
  const parts = logParts(tenant, bounds, types, order === 'newest');
  const [read, ...totals] = await Promise.all([mergedPage(tenant, parts, page), ...parts.map((p) => countItems(p.partition))]);
  return { events: read.items.map(envelopeOf), total: totals.reduce((a, b) => a + b, 0), nextCursor: read.nextCursor };
};

/** Every event of the log between two ids, oldest first, as stored (the exact bytes webhooks send): a replay. */
export async function* replayEvents(
  tenant: Tenant,
  bounds: readonly [string, string],
  types: TypeFilter,
): AsyncGenerator<{ eventId: string; payload: string }> {
  if (nothing(types, bounds)) return;
  for await (const { eventId, item } of mergedAll(logParts(tenant, bounds, types))) {
    yield { eventId, payload: unpackText(item, 'payload')! };
  }
}

/** One event of the tenant by id, or undefined (another tenant's event, or none, or a stored ping body). */
export const readEvent = async (tenant: Tenant, eventId: string): Promise<EventEnvelope | undefined> => {
  const payload = await eventPayload(tenant, eventId);
  if (!payload) return undefined;
  const envelope = JSON.parse(payload) as EventEnvelope;
  return envelopeTenant(envelope) === tenant && envelope.eventType !== 'webhook.ping' ? envelope : undefined;
};

/** The ids of the tenant's stored events whose payload mentions one of `needles` (the whole log: it lives 30 days). */
export const eventsNaming = async (tenant: Tenant, needles: readonly string[]): Promise<string[]> => {
  const ids: string[] = [];
  for (const part of logParts(tenant)) {
    for await (const item of queryAll(part.partition)) {
      const payload = unpackText(item, 'payload')!;
      if (needles.some((n) => payload.includes(n))) ids.push(part.idOf(item));
    }
  }
  return ids;
};
