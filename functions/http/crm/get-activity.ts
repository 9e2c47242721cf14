import { route } from '../../../shared/http/route';
import { requireActivity } from '../../../shared/data/activities';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams }, async ({ params, tenant }) => ({
  activity: await requireActivity(tenant, params.id),
}));
