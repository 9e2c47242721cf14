import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { execution } from '../../../shared/views/workflows';
import { cancelExecution } from '../../../shared/workflows/control';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:write', params: IdParams, response: z.strictObject({ execution }) },
  async ({ params, tenant, now, unit }) => ({
    execution: await cancelExecution(unit, tenant, params.id, now),
  }),
);
