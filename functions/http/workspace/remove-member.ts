import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { member } from '../../../shared/views/members';
import { removeMemberById } from '../../../shared/workspace/member-removals';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'admin:all', params: IdParams, response: deletion('member', member), errors: ['CONFLICT'] },
  async ({ params, tenant, now, unit }) => ({
    member: await removeMemberById(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
