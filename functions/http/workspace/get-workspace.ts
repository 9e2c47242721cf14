import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { workspace } from '../../../shared/views/auth';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { NotFoundError } from '../../../shared/domain/errors';
import { getWorkspace } from '../../../shared/data/workspaces';

export const handler = route({ scope: 'admin:all', response: z.strictObject({ workspace }) }, async ({ tenant }) => {
  const workspace = await getWorkspace(tenantParts(tenant).workspaceId);
  if (!workspace) throw new NotFoundError('Workspace');
  return { workspace };
});
