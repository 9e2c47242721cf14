import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { execution } from '../../../shared/views/workflows';
import { retryExecution } from '../../../shared/workflows/control';
import { IdParams } from './schemas';

/** 202: the failed step runs again as a new attempt; the execution goes on from there. */
export const handler = route(
  { scope: 'workflows:write', params: IdParams, status: 202, response: z.strictObject({ execution }) },
  async ({ params, tenant, now, unit }) => ({
    execution: await retryExecution(unit, tenant, params.id, now),
  }),
);
