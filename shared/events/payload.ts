import type { EventEnvelope } from './envelope';

/** The largest webhook body Parley sends (docs/guide/webhooks.md). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

/**
 * The event also travels inside the table stream record the pipe puts on the bus, where it is a JSON string
 * (every quote and backslash escaped) beside the record's other fields, and an EventBridge entry is at most
 * 256 KB. This much is kept for those other fields (keys, attribute names, ids, ARNs, sequence numbers).
 */
const STREAM_RECORD_ALLOWANCE_BYTES = 4 * 1024;

/** Whether a body fits both limits: as sent (256 KB) and escaped inside the pipe's bus entry. */
const fits = (body: string) =>
  Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES &&
  Buffer.byteLength(JSON.stringify(body)) + STREAM_RECORD_ALLOWANCE_BYTES <= MAX_PAYLOAD_BYTES;

/** Where an API client fetches the full entity named in a trimmed event. */
const entityLinks: Record<string, (id: string) => string> = {
  conversation: (id) => `/api/v1/inbox/conversations/${id}`,
  contact: (id) => `/api/v1/contacts/customers/${id}`,
  mergedContact: (id) => `/api/v1/contacts/customers/${id}`,
  subscription: (id) => `/api/v1/integrations/webhooks/${id}`,
  article: (id) => `/api/v1/ai/knowledge-base/articles/${id}`,
};

const idOf = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' && '_id' in value ? String((value as { _id: unknown })._id) : undefined;

/**
 * The exact bytes of an event, as stored and as every attempt sends them. When they would not fit (256 KB,
 * or the bus entry that carries them), each entity in `data` shrinks to its `_id` and an API `link` where
 * one exists, `changes` is left out, and `truncated` says so, so a receiver knows to fetch the rest.
 */
export const serialise = (envelope: EventEnvelope): string => {
  const full = JSON.stringify(envelope);
  if (fits(full)) return full;
  const data = Object.fromEntries(
    Object.entries(envelope.data).map(([key, value]) => {
      const id = idOf(value);
      return [key, id ? { _id: id, ...(entityLinks[key] ? { link: entityLinks[key](id) } : {}) } : null];
    }),
  );
  const { changes: _omitted, ...rest } = envelope;
  return JSON.stringify({ ...rest, data, truncated: true });
};
