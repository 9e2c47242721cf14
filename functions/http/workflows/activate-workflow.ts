import { route } from '../../../shared/http/route';
import { activateWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route({ scope: 'workflows:write', params: IdParams }, async ({ params, tenant, now }) => ({
  workflow: await activateWorkflow(tenant, params.id, true, now),
}));
