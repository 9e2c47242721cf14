import { NotFoundError } from '../domain/errors';
import { tenantParts, type Tenant } from '../domain/auth/tenant';
import { livemode, newestFirst, type TokenRecord } from '../domain/auth/token';
import { grantToken, manages, type TokenRequest } from '../domain/auth/token-grant';
import { createToken, getToken, listTokens, revokeToken } from '../data/tokens';
import { getWorkspaces } from '../data/workspaces';

/** Creates the token the caller asked for, never wider than the caller's own scopes, workspaces or mode. */
export const issueToken = (caller: TokenRecord, tenant: Tenant, request: TokenRequest, now: Date) =>
  createToken(grantToken(caller, tenantParts(tenant).workspaceId, request, now), now);

/** The workspace's tokens the caller manages, newest first, revoked and expired ones included. */
export const managedTokens = async (caller: TokenRecord, tenant: Tenant): Promise<TokenRecord[]> => {
  const { workspaceId } = tenantParts(tenant);
  return newestFirst((await listTokens(workspaceId)).filter((t) => manages(caller, workspaceId, t)));
};

/** Revokes a token the caller manages; any other token is not found. */
export const revokeManagedToken = async (caller: TokenRecord, tenant: Tenant, tokenId: string, now: Date): Promise<TokenRecord> => {
  const target = await getToken(tokenId);
  if (!target || !manages(caller, tenantParts(tenant).workspaceId, target)) throw new NotFoundError('Token');
  return revokeToken(target._id, now);
};

/** The workspaces a token is bound to, each seen in the token's own mode only. */
export const tokenWorkspaces = async (token: TokenRecord) =>
  (await getWorkspaces(token.workspaceIds)).map((w) => ({ ...w, livemode: livemode(token) }));
