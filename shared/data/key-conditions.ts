import { sandboxSend } from './registry/channels';
import { importRow } from './registry/imports';
import { idempotency, rateLimit, token } from './registry/requests';

/**
 * The keys infrastructure matches, derived from their declarations so that a key's shape is spelled in its
 * declaration alone: IAM's `dynamodb:LeadingKeys` conditions (infra/grants.ts) and the local runtime's fault
 * points (infra/local/faults.ts).
 */

/**
 * The partition-key prefixes of the items every HTTP function writes while authenticating, whatever its own
 * access: its token's (the rate-limit count is admitted on it) and the rate-limit windows' (the per-IP
 * failed-authentication counters).
 */
export const requestPipelinePartitions: readonly string[] = [token.prefix('pk', {}), rateLimit.prefix('pk', {})];

/** A primary key as a transaction part names it. */
interface PrimaryKey {
  pk?: string;
  sk?: string;
}

const ownedBy = (entity: Pick<typeof token, 'matches'>) => (key: PrimaryKey) =>
  entity.matches('pk', key.pk) && entity.matches('sk', key.sk);

/** The record of an `Idempotency-Key`'s answer (not its body's chunks). */
export const isIdempotencyRecord = ownedBy(idempotency);
/** What the sandbox provider logs of a send. */
export const isSandboxSend = ownedBy(sandboxSend);
/** What a data record of an import became. */
export const isImportRow = ownedBy(importRow);
