import { NotFoundError } from '../domain/errors';
import { Missing, Refused } from '../domain/refusal';
import { tenantOf, tenantParts, type Tenant } from '../domain/auth/tenant';
import { generateToken, hashToken, newestFirst, visiblePrefix, type TokenRecord } from '../domain/auth/token';
import { grantToken, manages, type TokenRequest } from '../domain/auth/token-grant';
import { buildEnvelope } from '../events/envelope';
import { objectId } from '../ids';
import { outboxItem } from '../data/outbox';
import { getToken, listTokens, storedToken, tokenCreation, tokenRevocation } from '../data/tokens';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { getWorkspaces } from '../data/workspaces';
import { tokenBody } from '../views/tokens';

export interface NewToken {
  name: string;
  scopes: string[];
  workspaceIds: string[];
  livemode: boolean;
  expiresAt?: string;
}

/** `auth.token.<event>` in each workspace the token is bound to, in the token's mode: its public view, never the hash or secret. */
const tokenEvents = (event: 'created' | 'revoked', record: TokenRecord, now: Date): Write[] =>
  record.workspaceIds.map((workspaceId) =>
    outboxItem(buildEnvelope(`auth.token.${event}`, tenantOf(workspaceId, record.livemode), { token: tokenBody(record) }, { now })),
  );

/** Creates a token and returns its full value, which is never stored or shown again. */
export const createToken = async (unit: Unit, input: NewToken, now = new Date()): Promise<{ token: string; record: TokenRecord }> => {
  const token = generateToken(input.livemode);
  const record: TokenRecord = {
    _id: objectId(now.getTime()),
    name: input.name,
    prefix: visiblePrefix(token),
    livemode: input.livemode,
    scopes: [...new Set(input.scopes)],
    workspaceIds: [...new Set(input.workspaceIds)],
    createdAt: now.toISOString(),
    expiresAt: input.expiresAt,
  };
  await unit.commit([...tokenCreation(record, hashToken(token)), ...tokenEvents('created', record, now)]);
  return { token, record };
};

/** Revokes a token (409 when it was revoked already), with `auth.token.revoked` in each of its workspaces. */
export const revokeToken = async (unit: Unit, tokenId: string, now = new Date()): Promise<TokenRecord> => {
  const stored = await storedToken(tokenId);
  if (!stored) throw new Missing('Token');
  if (stored.record.revokedAt) throw new Refused('token_already_revoked', 'Token is already revoked');
  const revoked = { ...stored.record, revokedAt: now.toISOString() };
  await unit.commit([...tokenRevocation(stored, revoked.revokedAt), ...tokenEvents('revoked', revoked, now)]);
  return revoked;
};

/** Creates the token the caller asked for, never wider than the caller's own scopes, workspaces or mode. */
export const issueToken = (unit: Unit, caller: TokenRecord, tenant: Tenant, request: TokenRequest, now: Date) =>
  createToken(unit, grantToken(caller, tenantParts(tenant).workspaceId, request, now), now);

/** The workspace's tokens the caller manages, newest first, revoked and expired ones included. */
export const managedTokens = async (caller: TokenRecord, tenant: Tenant): Promise<TokenRecord[]> => {
  const { workspaceId } = tenantParts(tenant);
  return newestFirst((await listTokens(workspaceId)).filter((t) => manages(caller, workspaceId, t)));
};

/** Revokes a token the caller manages; any other token is not found. */
export const revokeManagedToken = async (
  unit: Unit,
  caller: TokenRecord,
  tenant: Tenant,
  tokenId: string,
  now: Date,
): Promise<TokenRecord> => {
  const target = await getToken(tokenId);
  if (!target || !manages(caller, tenantParts(tenant).workspaceId, target)) throw new NotFoundError('Token');
  return revokeToken(unit, target._id, now);
};

/** The workspaces a token is bound to, each seen in the token's own mode only. */
export const tokenWorkspaces = async (token: TokenRecord) =>
  (await getWorkspaces(token.workspaceIds)).map((w) => ({ ...w, livemode: token.livemode }));
