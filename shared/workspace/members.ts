import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { acceptInvite, changeRole, newMember, type Member, type MemberChange, type MemberStatus, type Role } from '../domain/auth/member';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { getStoredMember, memberCreation, membersPage, memberUpdate, ownerCountWrites } from '../data/members';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';

const memberEvent = (tenant: Tenant, before: Member | undefined, change: MemberChange, now: Date): Write => {
  const fields = change.event === 'role_changed' ? (['role'] as const) : change.event === 'invited' ? [] : (['status'] as const);
  const pick = (m: Member) => Object.fromEntries(fields.map((f) => [f, m[f]]));
  const changes = before ? diff(pick(before), pick(change.member)) : undefined;
  return outboxItem(buildEnvelope(`auth.member.${change.event}`, tenant, { member: change.member }, { changes, now }));
};

export const getMember = async (tenant: Tenant, id: string): Promise<Member> => {
  const stored = await getStoredMember(tenant, id);
  if (!stored) throw new Missing('Member');
  return stored.member;
};

export const listMembers = (tenant: Tenant, filters: { status?: MemberStatus }, page: PageRequest) => membersPage(tenant, filters, page);

/** Invites a member (or, for a workspace's first owner, adds an active one): 409 when the email is already a member's. */
export const addMember = async (
  unit: Unit,
  tenant: Tenant,
  input: { email: string; name?: string | null; role: Role },
  now: Date,
  status: 'invited' | 'active' = 'invited',
): Promise<Member> => {
  const member = newMember(input, objectId(now.getTime()), now, status);
  const change: MemberChange = {
    member,
    event: status === 'active' ? 'joined' : 'invited',
    owners: status === 'active' && member.role === 'owner' ? 1 : 0,
  };
  await retryOnConflict(() =>
    unit.commit(
      [...memberCreation(tenant, member), ...ownerCountWrites(tenant, change.owners), memberEvent(tenant, undefined, change, now)],
      lostRace,
    ),
  );
  return member;
};

/**
 * Read, decide, write under the version read: the member, its lists, the owner count and its event in one
 * transaction; `extra` joins it (a removal's email release and pending unassignment).
 */
export const mutateMember = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (m: Member) => MemberChange | undefined,
  now: Date,
  extra: (m: Member) => { writes?: Write[]; set?: Record<string, unknown> } = () => ({}),
): Promise<Member> =>
  retryOnConflict(async () => {
    const stored = await getStoredMember(tenant, id);
    if (!stored) throw new Missing('Member');
    const change = decide(stored.member);
    if (!change) return stored.member;
    const more = extra(stored.member);
    await unit.commit(
      [
        ...memberUpdate(tenant, stored, change.member, more.set),
        ...ownerCountWrites(tenant, change.owners),
        memberEvent(tenant, stored.member, change, now),
        ...(more.writes ?? []),
      ],
      lostRace,
    );
    return change.member;
  });

export const acceptMember = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Member> =>
  mutateMember(unit, tenant, id, (m) => acceptInvite(m, now), now);

export const changeMemberRole = (unit: Unit, tenant: Tenant, id: string, role: Role, now: Date): Promise<Member> =>
  mutateMember(unit, tenant, id, (m) => changeRole(m, role, now), now);
