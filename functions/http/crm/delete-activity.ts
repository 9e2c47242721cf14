import { route } from '../../../shared/http/route';
import { deleteActivity } from '../../../shared/data/activities';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:delete', params: IdParams, errors: ['CONFLICT'] }, async ({ params, tenant, now }) => ({
  activity: await deleteActivity(tenant, params.id, now),
}));
