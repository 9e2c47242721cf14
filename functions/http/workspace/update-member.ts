import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/auth';
import { mutateMember } from '../../../shared/data/members';
import { changeRole } from '../../../shared/domain/auth/member';
import { IdParams, UpdateMember } from './schemas';

export const handler = route(
  { scope: 'admin:all', params: IdParams, body: UpdateMember, response: z.strictObject({ member }) },
  async ({ params, body, tenant, now }) => ({
    member: await mutateMember(tenant, params.id, (m) => changeRole(m, body.role, now), now),
  }),
);
