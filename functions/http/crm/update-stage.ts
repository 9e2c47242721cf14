import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { updateStage } from '../../../shared/crm/pipelines';
import { StageParams, UpdateStage } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:update', params: StageParams, body: UpdateStage, response: z.strictObject({ pipeline }) },
  async ({ params, body, tenant, now, unit }) => ({
    pipeline: await updateStage(unit, tenant, params.id, params.stageId, body, now),
  }),
);
