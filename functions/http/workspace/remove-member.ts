import { route } from '../../../shared/http/route';
import { removeMemberById } from '../../../shared/data/member-removal';
import { IdParams } from './schemas';

export const handler = route({ scope: 'admin:all', params: IdParams, errors: ['CONFLICT'] }, async ({ params, tenant, now }) => ({
  member: await removeMemberById(tenant, params.id, now),
}));
