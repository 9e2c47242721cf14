import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { reorderPipelineStages } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';
import { ReorderStages } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: ReorderStages, response: z.strictObject({ pipeline }) },
  async ({ params, body, tenant, now, unit }) => ({
    pipeline: await reorderPipelineStages(unit, tenant, params.id, body.stageIds, now),
  }),
);
