import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { updatePipeline } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';
import { UpdatePipeline } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: UpdatePipeline, response: z.strictObject({ pipeline }) },
  async ({ params, body, tenant, now, unit }) => ({
    pipeline: await updatePipeline(unit, tenant, params.id, body, now),
  }),
);
