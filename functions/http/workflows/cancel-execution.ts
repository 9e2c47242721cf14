import { route } from '../../../shared/http/route';
import { cancelExecution } from '../../../shared/workflows/control';
import { IdParams } from './schemas';

export const handler = route({ scope: 'workflows:write', params: IdParams }, async ({ params, tenant, now }) => ({
  execution: await cancelExecution(tenant, params.id, now),
}));
