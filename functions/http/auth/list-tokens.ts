import { route } from '../../../shared/http/route';
import { wholeList } from '../../../shared/http/pagination';
import { listTokens } from '../../../shared/data/tokens';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { manages } from '../../../shared/domain/auth/token-grant';
import { apiToken } from '../../../shared/views/auth';
import { listOf } from '../../../shared/views/common';
import { tokenView } from './schemas';

/** The workspace's tokens in the caller's mode, newest first, revoked and expired ones included; never a secret. */
export const handler = route({ scope: 'admin:all', response: listOf('tokens', apiToken) }, async ({ token: caller, tenant, now }) => {
  const { workspaceId } = tenantParts(tenant);
  const tokens = (await listTokens(workspaceId))
    .filter((t) => manages(caller, workspaceId, t))
    .sort((a, b) => b._id.localeCompare(a._id))
    .map((t) => tokenView(t, now));
  return { tokens, pagination: wholeList(tokens.length) };
});
