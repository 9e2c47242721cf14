import type { Scope } from '../../shared/domain/auth/scopes';
import { testTenant } from '../../shared/domain/auth/tenant';
import { createToken } from '../../shared/auth/tokens';
import { createWorkspace } from '../../shared/data/workspaces';
import { direct } from '../../shared/data/unit';

/** A workspace and a test-mode token for it (with the tenant that token acts in), made with the same repositories the CLI uses. */
export const createTenant = async (scopes: Scope[] = ['admin:all'], opts: { expiresAt?: string; name?: string } = {}) => {
  const workspace = await createWorkspace(direct, opts.name ?? 'Test workspace');
  const { token, record } = await createToken(direct, {
    name: 'test token',
    scopes,
    workspaceIds: [workspace._id],
    livemode: false,
    expiresAt: opts.expiresAt,
  });
  return { workspaceId: workspace._id, tenant: testTenant(workspace._id), token, tokenId: record._id };
};

/** Another token for the workspaces: by default in test mode, like `createTenant`'s, so it sees the same data. */
export const tokenFor = async (workspaceIds: string[], scopes: Scope[], opts: { expiresAt?: string; livemode?: boolean } = {}) =>
  createToken(direct, { name: 'extra token', scopes, workspaceIds, livemode: opts.livemode ?? false, expiresAt: opts.expiresAt });
