import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { requirePipeline } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, response: z.strictObject({ pipeline }) },
  async ({ params, tenant }) => ({
    pipeline: (await requirePipeline(tenant, params.id)).pipeline,
  }),
);
