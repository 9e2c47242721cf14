import { route } from '../../../shared/http/route';
import { deleteTask } from '../../../shared/data/tasks';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:delete', params: IdParams }, async ({ params, tenant, now }) => ({
  task: await deleteTask(tenant, params.id, now),
}));
