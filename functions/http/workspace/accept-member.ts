import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/members';
import { acceptMember } from '../../../shared/workspace/members';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'admin:all', params: IdParams, response: z.strictObject({ member }) },
  async ({ params, tenant, now, unit }) => ({
    member: await acceptMember(unit, tenant, params.id, now),
  }),
);
