import { route } from '../../../shared/http/route';
import { requirePipeline } from '../../../shared/data/pipelines';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams }, async ({ params, tenant }) => ({
  pipeline: (await requirePipeline(tenant, params.id)).pipeline,
}));
