import type { Tenant } from '../domain/auth/tenant';
import { acceptInvite, changeRole, type Member, type Role } from '../domain/auth/member';
import { mutateMember } from '../data/members';

export { addMember, getMember, listMembers } from '../data/members';

export const acceptMember = (tenant: Tenant, id: string, now: Date): Promise<Member> =>
  mutateMember(tenant, id, (m) => acceptInvite(m, now), now);

export const changeMemberRole = (tenant: Tenant, id: string, role: Role, now: Date): Promise<Member> =>
  mutateMember(tenant, id, (m) => changeRole(m, role, now), now);
