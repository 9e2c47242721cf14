import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
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

/**
 * An event's bytes from this size on are stored compressed: with the outbox item's other attributes (about
 * 250 bytes) a larger payload would cross DynamoDB's 1 KB write unit, which its transaction then bills twice
 * and its events-log index entry once more. Brotli at quality 6 packs a 1 KB event to about 460 bytes
 * (620 in base64) in about 0.15 ms.
 */
const PACK_FROM_BYTES = 640;
const QUALITY = 6;

/** An event's bytes as stored: as they are (`payload`), or brotli-compressed in base64 (`payloadZ`) where that is smaller. */
export const packPayload = (payload: string): { payload: string } | { payloadZ: string } => {
  const bytes = Buffer.byteLength(payload);
  if (bytes < PACK_FROM_BYTES) return { payload };
  const packed = brotliCompressSync(payload, {
    params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes },
  }).toString('base64');
  return packed.length < bytes ? { payloadZ: packed } : { payload };
};

/** The exact bytes of a stored event, whichever way they were stored (items written before packing hold `payload`). */
export const unpackPayload = (stored: Record<string, unknown> | undefined): string | undefined => {
  if (typeof stored?.payload === 'string') return stored.payload;
  if (typeof stored?.payloadZ === 'string') return brotliDecompressSync(Buffer.from(stored.payloadZ, 'base64')).toString('utf8');
  return undefined;
};
