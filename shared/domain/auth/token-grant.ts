import { AppError, ValidationError } from '../errors';
import { grants, type Scope } from './scopes';
import type { TokenRecord } from './token';
import { isFuture } from './token-input';

export interface TokenRequest {
  name: string;
  scopes: string[];
  workspaceIds?: string[];
  expiresAt?: string;
  test?: boolean;
}

export interface GrantedToken {
  name: string;
  scopes: string[];
  workspaceIds: string[];
  livemode: boolean;
  expiresAt?: string;
}

type Caller = Pick<TokenRecord, 'scopes' | 'workspaceIds' | 'livemode'>;

/**
 * The token a caller may create: never wider than the caller. Every workspace must be one of the caller's
 * (403 WORKSPACE_ACCESS_DENIED), every scope one the caller holds (403 FORBIDDEN), and a test-mode caller
 * creates test-mode tokens only (a live token reaches live data, which a test token never does).
 */
export const grantToken = (caller: Caller, workspaceId: string, req: TokenRequest, now: Date): GrantedToken => {
  if (req.expiresAt !== undefined && !isFuture(req.expiresAt, now))
    throw new ValidationError([{ path: 'expiresAt', message: 'Must be in the future' }]);
  const workspaceIds = [...new Set(req.workspaceIds ?? [workspaceId])];
  if (workspaceIds.some((w) => !caller.workspaceIds.includes(w))) {
    throw new AppError('WORKSPACE_ACCESS_DENIED', 'A token can only be granted workspaces its creator can access');
  }
  const wider = req.scopes.filter((s) => !grants(caller.scopes, s as Scope));
  if (wider.length > 0)
    throw new AppError('FORBIDDEN', `A token can only be granted scopes its creator holds; not held: ${wider.join(', ')}`);
  const livemode = req.test === undefined ? caller.livemode : !req.test;
  if (!caller.livemode && livemode) throw new AppError('FORBIDDEN', 'A test-mode token cannot create live tokens');
  return {
    name: req.name,
    scopes: [...new Set(req.scopes)],
    workspaceIds,
    livemode,
    ...(req.expiresAt ? { expiresAt: req.expiresAt } : {}),
  };
};

/**
 * Whether a caller acting in `workspaceId` manages `target`: bound to that workspace, in the caller's mode,
 * and to no workspace the caller lacks (revoking it must not reach beyond the caller). Anything else is
 * answered as not found.
 */
export const manages = (caller: Caller, workspaceId: string, target: Pick<TokenRecord, 'workspaceIds' | 'livemode'>): boolean =>
  target.livemode === caller.livemode &&
  target.workspaceIds.includes(workspaceId) &&
  target.workspaceIds.every((w) => caller.workspaceIds.includes(w));
