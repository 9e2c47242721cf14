import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { executionWithSteps } from '../../../shared/views/workflows';
import { executionDetail } from '../../../shared/workflows/executions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:read', params: IdParams, response: z.strictObject({ execution: executionWithSteps }) },
  async ({ params, tenant }) => ({
    execution: await executionDetail(tenant, params.id),
  }),
);
