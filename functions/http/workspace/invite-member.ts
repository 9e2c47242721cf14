import { route } from '../../../shared/http/route';
import { addMember } from '../../../shared/data/members';
import { InviteMember } from './schemas';

export const handler = route({ scope: 'admin:all', body: InviteMember, status: 201 }, async ({ body, tenant, now }) => ({
  member: await addMember(tenant, body, now),
}));
