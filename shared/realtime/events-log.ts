import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { idBounds, type LogRange } from '../domain/events/log-range';
import { typeFilters, visibleCategories } from '../domain/events/visibility';
import type { EventEnvelope } from '../events/envelope';
import { CATEGORY_READ_SCOPES } from '../events/scopes';
import { readEvent, readEvents, type EventsRead } from '../data/events-log';
import type { PageRequest } from '../data/query';

/** The event types a token may see among the requested patterns (`*` when none are named). */
export const visibleTypes = (scopes: readonly string[], patterns: readonly string[] = ['*']) =>
  typeFilters(patterns, visibleCategories(scopes, CATEGORY_READ_SCOPES));

/** Events written before test mode existed carry no `livemode`: they are live. */
const asListed = (e: EventEnvelope): EventEnvelope => ({ ...e, livemode: e.livemode !== false });

/**
 * A page of the tenant's events log that the token may see: newest first, or with `since` the events after
 * that one, oldest first (catching up).
 */
export const listEvents = async (
  tenant: Tenant,
  scopes: readonly string[],
  filter: LogRange & { types?: readonly string[] },
  page: PageRequest,
  now: Date,
): Promise<EventsRead> => {
  const read = await readEvents(
    tenant,
    idBounds(filter, now),
    visibleTypes(scopes, filter.types),
    filter.since ? 'oldest' : 'newest',
    page,
  );
  return { ...read, events: read.events.map(asListed) };
};

/** One event of the tenant; one the token may not see is as absent as one that does not exist. */
export const getEvent = async (tenant: Tenant, scopes: readonly string[], eventId: string): Promise<EventEnvelope> => {
  const found = await readEvent(tenant, eventId);
  const { exact, prefixes } = visibleTypes(scopes, found ? [found.eventType] : []);
  if (!found || (exact.length === 0 && prefixes.length === 0)) throw new NotFoundError('Event');
  return asListed(found);
};
