import { route } from '../../../shared/http/route';
import { completeTaskById } from '../../../shared/data/tasks';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:update', params: IdParams }, async ({ params, tenant, now }) => ({
  task: await completeTaskById(tenant, params.id, now),
}));
