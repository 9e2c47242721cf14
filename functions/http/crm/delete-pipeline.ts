import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { deletePipeline } from '../../../shared/crm/pipelines';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: z.strictObject({ pipeline }), errors: ['CONFLICT'] },
  async ({ params, tenant, now }) => ({
    pipeline: await deletePipeline(tenant, params.id, now),
  }),
);
