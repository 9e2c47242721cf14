import { ConflictError } from '../errors';

/** A kept response: what the first request answered. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** An idempotency record as the pipeline reads it. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: 'running' | 'done';
  /** Epoch seconds after which a running first request that committed nothing may be taken over. */
  lockUntil: number;
  /** Epoch seconds after which the record no longer exists for the API (TTL deletes it later). */
  expiresAt: number;
  /** Transactions the first request committed outside its final one (see docs/guide/idempotency.md). */
  commits: number;
  response?: StoredResponse;
}

/** A repeat while the first request runs: try again shortly. */
export class IdempotencyInProgress extends ConflictError {
  constructor(key: string) {
    super(`A request with Idempotency-Key "${key}" is still being processed; retry after 1 second`, { idempotencyKey: key, retryAfter: 1 });
  }
}

export type Decision = { kind: 'claim' } | { kind: 'replay'; response: StoredResponse };

/**
 * What a request carrying a key does, given the key's record (if any): run (claim the key), replay the
 * kept response, or fail with 409. A first request that died after committing part of its work is never
 * run again: that would repeat the committed part.
 */
export const decide = (key: string, record: IdempotencyRecord | undefined, fingerprint: string, nowSeconds: number): Decision => {
  if (!record || record.expiresAt <= nowSeconds) return { kind: 'claim' };
  if (record.fingerprint !== fingerprint) {
    throw new ConflictError(`Idempotency-Key "${key}" was already used for a different request (method, path or body)`, {
      idempotencyKey: key,
    });
  }
  if (record.status === 'done' && record.response) return { kind: 'replay', response: record.response };
  if (record.lockUntil > nowSeconds) throw new IdempotencyInProgress(key);
  if (record.commits > 0) {
    throw new ConflictError(
      `The request with Idempotency-Key "${key}" stopped after committing its change and its response was lost; it will not run again`,
      {
        idempotencyKey: key,
      },
    );
  }
  return { kind: 'claim' };
};

/** The key changed hands (its lock expired while the first request ran): the first must not commit. */
export class IdempotencyKeyTakenOver extends ConflictError {
  constructor(key: string) {
    super(`Idempotency-Key "${key}" was taken over by a repeat of this request`, { idempotencyKey: key });
  }
}
