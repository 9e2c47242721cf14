import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { workspace } from '../../../shared/views/auth';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { requireWorkspace } from '../../../shared/workspace/settings';

export const handler = route({ scope: 'admin:all', response: z.strictObject({ workspace }) }, async ({ tenant }) => ({
  workspace: await requireWorkspace(tenantParts(tenant).workspaceId),
}));
