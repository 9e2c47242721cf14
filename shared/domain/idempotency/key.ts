import { createHash } from 'node:crypto';
import { ValidationError } from '../errors';

/** The header a client sends on a POST or PATCH it may retry (Stripe's name and rules). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A kept first response answers repeats for this long; the record then expires through the table's TTL. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/** How long a first request holds its key before a repeat may take it over (it wrote nothing by then). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/** 1–255 printable ASCII characters, the document's pattern for the header too. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The key as sent, or a 422 naming the header: 1–255 printable ASCII characters. */
export const checkIdempotencyKey = (value: string): string => {
  if (!IDEMPOTENCY_KEY_PATTERN.test(value))
    throw new ValidationError([{ path: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 printable ASCII characters' }]);
  return value;
};

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** What "the same request" means: method, path and a hash of the exact body bytes. */
export const requestFingerprint = (method: string, path: string, body: Buffer): string => sha256(`${method} ${path}\n${sha256(body)}`);

/** The key as it appears in the record's partition key: hashed, so any printable character is safe in a key. */
export const keyDigest = (key: string): string => sha256(key);
