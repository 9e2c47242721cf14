import { route } from '../../../shared/http/route';
import { pipelineSummary } from '../../../shared/data/pipelines';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams }, async ({ params, tenant }) => ({
  summary: await pipelineSummary(tenant, params.id),
}));
