import { route } from '../../../shared/http/route';
import { getMember } from '../../../shared/data/members';
import { IdParams } from './schemas';

export const handler = route({ scope: 'admin:all', params: IdParams }, async ({ params, tenant }) => ({
  member: await getMember(tenant, params.id),
}));
