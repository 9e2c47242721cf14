import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { deleteStage } from '../../../shared/crm/pipelines';
import { StageParams } from './schemas';

export const handler = route(
  { scope: 'crm:delete', params: StageParams, response: z.strictObject({ pipeline }), errors: ['CONFLICT'] },
  async ({ params, tenant, now }) => ({
    pipeline: await deleteStage(tenant, params.id, params.stageId, now),
  }),
);
