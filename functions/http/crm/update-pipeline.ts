import { route } from '../../../shared/http/route';
import { renamePipeline, requirePipeline } from '../../../shared/data/pipelines';
import { IdParams, UpdatePipeline } from './schemas';

export const handler = route({ scope: 'crm:update', params: IdParams, body: UpdatePipeline }, async ({ params, body, tenant, now }) => ({
  pipeline: body.name === undefined ? (await requirePipeline(tenant, params.id)).pipeline : await renamePipeline(tenant, params.id, body.name, now),
}));
