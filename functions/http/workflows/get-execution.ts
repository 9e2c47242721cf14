import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { executionWithSteps } from '../../../shared/views/workflows';
import { NotFoundError } from '../../../shared/domain/errors';
import { executionView, getExecution, listSteps } from '../../../shared/data/workflow-executions';
import { IdParams } from './schemas';

/** The execution with every step attempt, in order. */
export const handler = route(
  { scope: 'workflows:read', params: IdParams, response: z.strictObject({ execution: executionWithSteps }) },
  async ({ params, tenant }) => {
    const e = await getExecution(tenant, params.id);
    if (!e) throw new NotFoundError('Execution');
    return { execution: { ...executionView(e), steps: await listSteps(e) } };
  },
);
