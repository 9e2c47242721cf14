import type { EventEnvelope } from './envelope';

/** The largest webhook body Parley sends (DESIGN §5.4). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/** Where an API client fetches the full entity named in a trimmed event. */
const entityLinks: Record<string, (id: string) => string> = {
  conversation: (id) => `/api/v1/inbox/conversations/${id}`,
  contact: (id) => `/api/v1/contacts/customers/${id}`,
  mergedContact: (id) => `/api/v1/contacts/customers/${id}`,
  subscription: (id) => `/api/v1/integrations/webhooks/${id}`,
};

const idOf = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' && '_id' in value ? String((value as { _id: unknown })._id) : undefined;

/**
 * The exact bytes of an event, as stored and as every attempt sends them. Over 256 KB, each entity in
 * `data` shrinks to its `_id` and an API `link` where one exists, `changes` is left out, and `truncated`
 * says so, so a receiver knows to fetch the rest.
 */
export const serialise = (envelope: EventEnvelope): string => {
  const full = JSON.stringify(envelope);
  if (Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES) return full;
  const data = Object.fromEntries(
    Object.entries(envelope.data).map(([key, value]) => {
      const id = idOf(value);
      return [key, id ? { _id: id, ...(entityLinks[key] ? { link: entityLinks[key](id) } : {}) } : null];
    }),
  );
  const { changes: _omitted, ...rest } = envelope;
  return JSON.stringify({ ...rest, data, truncated: true });
};
