import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { stage } from '../../../shared/views/crm';
import { deleteStage } from '../../../shared/crm/pipelines';
import { StageParams } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:delete', params: StageParams, response: deletion('stage', stage), errors: ['CONFLICT'] },
  async ({ params, tenant, now, unit }) => ({
    stage: await deleteStage(unit, tenant, params.id, params.stageId, now),
    deleted: true as const,
  }),
);
