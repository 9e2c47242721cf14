import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/auth';
import { mutateMember } from '../../../shared/data/members';
import { acceptInvite } from '../../../shared/domain/auth/member';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'admin:all', params: IdParams, response: z.strictObject({ member }) },
  async ({ params, tenant, now }) => ({
    member: await mutateMember(tenant, params.id, (m) => acceptInvite(m, now), now),
  }),
);
