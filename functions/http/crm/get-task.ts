import { route } from '../../../shared/http/route';
import { requireTask } from '../../../shared/data/tasks';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams }, async ({ params, tenant }) => ({
  task: await requireTask(tenant, params.id),
}));
