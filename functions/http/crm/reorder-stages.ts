import { route } from '../../../shared/http/route';
import { reorderPipelineStages } from '../../../shared/data/pipelines';
import { IdParams, ReorderStages } from './schemas';

export const handler = route({ scope: 'crm:update', params: IdParams, body: ReorderStages }, async ({ params, body, tenant, now }) => ({
  pipeline: await reorderPipelineStages(tenant, params.id, body.stageIds, now),
}));
