import { route } from '../../../shared/http/route';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { NotFoundError } from '../../../shared/domain/errors';
import { getWorkspace } from '../../../shared/data/workspaces';

export const handler = route({ scope: 'admin:all' }, async ({ tenant }) => {
  const workspace = await getWorkspace(tenantParts(tenant).workspaceId);
  if (!workspace) throw new NotFoundError('Workspace');
  return { workspace };
});
