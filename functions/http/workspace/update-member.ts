import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/members';
import { changeMemberRole } from '../../../shared/workspace/members';
import { IdParams, UpdateMember } from './schemas';

export const handler = route(
  { scope: 'admin:all', params: IdParams, body: UpdateMember, response: z.strictObject({ member }) },
  async ({ params, body, tenant, now, unit }) => ({
    member: await changeMemberRole(unit, tenant, params.id, body.role, now),
  }),
);
