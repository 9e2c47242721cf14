import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { removeWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:write', params: IdParams, response: z.strictObject({}) },
  async ({ params, tenant, now }) => {
    await removeWorkflow(tenant, params.id, now);
    return {};
  },
);
