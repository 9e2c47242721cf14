import { newestFirst, type TokenRecord } from '../domain/auth/token';
import { listTokens } from '../data/tokens';
import { createToken, revokeToken, type NewToken } from './tokens';
import { requireWorkspaces } from '../workspace/operator';
import type { Unit } from '../data/unit';

/*
 * What the operator does with API tokens: the `parley` CLI, acting with the deployment's own credentials.
 * Unlike a caller's token management (tokens.ts), no token's scopes, workspaces or mode bound it; only the
 * workspaces a token names must exist.
 */

/** Creates a token for existing workspaces; its value is in the answer only. */
export const issueOperatorToken = async (unit: Unit, input: NewToken, now: Date): Promise<{ token: string; record: TokenRecord }> => {
  await requireWorkspaces(input.workspaceIds);
  return createToken(unit, input, now);
};

/** A workspace's tokens, newest first, revoked and expired ones included. */
export const workspaceTokens = async (workspaceId: string): Promise<TokenRecord[]> => {
  await requireWorkspaces([workspaceId]);
  return newestFirst(await listTokens(workspaceId));
};

export const revokeOperatorToken = (unit: Unit, tokenId: string, now: Date): Promise<TokenRecord> => revokeToken(unit, tokenId, now);
