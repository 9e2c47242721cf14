import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { activity } from '../../../shared/views/crm';
import { deleteActivity } from '../../../shared/crm/activities';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: deletion('activity', activity), errors: ['CONFLICT'] },
  async ({ params, tenant, now, unit }) => ({
    activity: await deleteActivity(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
