import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { workspace } from '../../../shared/views/auth';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { updateWorkspace } from '../../../shared/workspace/settings';
import { UpdateWorkspace } from './schemas';

export const handler = route(
  { scope: 'admin:all', body: UpdateWorkspace, response: z.strictObject({ workspace }) },
  async ({ body, tenant, now, unit }) => ({
    workspace: await updateWorkspace(unit, tenantParts(tenant).workspaceId, body, now),
  }),
);
