import { route } from '../../../shared/http/route';
import { requireWorkflow } from '../../../shared/data/workflows';
import { IdParams } from './schemas';

export const handler = route({ scope: 'workflows:read', params: IdParams }, async ({ params, tenant }) => ({
  workflow: (await requireWorkflow(tenant, params.id)).workflow,
}));
