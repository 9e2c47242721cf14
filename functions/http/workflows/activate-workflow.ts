import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { definition } from '../../../shared/views/workflows';
import { activateWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:write', params: IdParams, response: z.strictObject({ workflow: definition }) },
  async ({ params, tenant, now, unit }) => ({
    workflow: await activateWorkflow(unit, tenant, params.id, true, now),
  }),
);
