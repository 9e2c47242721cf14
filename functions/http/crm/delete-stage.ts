import { route } from '../../../shared/http/route';
import { deleteStage } from '../../../shared/data/pipelines';
import { StageParams } from './schemas';

export const handler = route({ scope: 'crm:delete', params: StageParams, errors: ['CONFLICT'] }, async ({ params, tenant, now }) => ({
  pipeline: await deleteStage(tenant, params.id, params.stageId, now),
}));
