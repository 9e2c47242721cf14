import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { definition } from '../../../shared/views/workflows';
import { requireWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:read', params: IdParams, response: z.strictObject({ workflow: definition }) },
  async ({ params, tenant }) => ({
    workflow: (await requireWorkflow(tenant, params.id)).workflow,
  }),
);
