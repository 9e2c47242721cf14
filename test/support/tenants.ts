import type { Scope } from '../../shared/domain/auth/scopes';
import { createToken } from '../../shared/data/tokens';
import { createWorkspace } from '../../shared/data/workspaces';

/** A workspace and a token for it, made with the same repositories the CLI uses. */
export const createTenant = async (scopes: Scope[] = ['admin:all'], opts: { expiresAt?: string; name?: string } = {}) => {
  const workspace = await createWorkspace(opts.name ?? 'Test workspace');
  const { token, record } = await createToken({
    name: 'test token',
    scopes,
    workspaceIds: [workspace._id],
    environment: 'test',
    expiresAt: opts.expiresAt,
  });
  return { workspaceId: workspace._id, token, tokenId: record._id };
};

export const tokenFor = async (workspaceIds: string[], scopes: Scope[], opts: { expiresAt?: string } = {}) =>
  createToken({ name: 'extra token', scopes, workspaceIds, environment: 'live', expiresAt: opts.expiresAt });
