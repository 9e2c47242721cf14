import { route } from '../../../shared/http/route';
import { mutateMember } from '../../../shared/data/members';
import { acceptInvite } from '../../../shared/domain/auth/member';
import { IdParams } from './schemas';

export const handler = route({ scope: 'admin:all', params: IdParams }, async ({ params, tenant, now }) => ({
  member: await mutateMember(tenant, params.id, (m) => acceptInvite(m, now), now),
}));
