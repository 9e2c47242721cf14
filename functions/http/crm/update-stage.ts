import { route } from '../../../shared/http/route';
import { updateStage } from '../../../shared/data/pipelines';
import { StageParams, UpdateStage } from './schemas';

export const handler = route({ scope: 'crm:update', params: StageParams, body: UpdateStage }, async ({ params, body, tenant, now }) => ({
  pipeline: await updateStage(tenant, params.id, params.stageId, body, now),
}));
