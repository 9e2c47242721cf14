import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/members';
import { addMember } from '../../../shared/workspace/members';
import { InviteMember } from './schemas';

export const handler = route(
  { scope: 'admin:all', body: InviteMember, status: 201, response: z.strictObject({ member }) },
  async ({ body, tenant, now, unit }) => ({
    member: await addMember(unit, tenant, body, now),
  }),
);
