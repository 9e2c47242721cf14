import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { task } from '../../../shared/views/crm';
import { deleteTask } from '../../../shared/crm/tasks';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: deletion('task', task) },
  async ({ params, tenant, now, unit }) => ({
    task: await deleteTask(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
