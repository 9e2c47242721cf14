import * as z from 'zod';
import { ConflictError } from '../errors';
import { built } from '../built';

const ROLES = ['owner', 'admin', 'manager', 'agent'] as const;
export const Role = /* @__PURE__ */ built(() => z.enum(ROLES));
export type Role = z.infer<typeof Role>;

const MEMBER_STATUSES = ['invited', 'active', 'removed'] as const;
export const MemberStatus = /* @__PURE__ */ built(() => z.enum(MEMBER_STATUSES));
export type MemberStatus = z.infer<typeof MemberStatus>;

/** A person of the workspace (docs/guide/workspace.md). Every assignee id names an active member. */
export interface Member {
  _id: string;
  email: string;
  name: string | null;
  role: Role;
  status: MemberStatus;
  invitedAt: string;
  joinedAt: string | null;
  removedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

type MemberEventName = 'invited' | 'joined' | 'removed' | 'role_changed';

/** A member's change: the member after it, its event, and how the count of active owners moves. */
export interface MemberChange {
  member: Member;
  event: MemberEventName;
  owners: number;
}

const activeOwner = (m: Member) => (m.status === 'active' && m.role === 'owner' ? 1 : 0);

const change = (before: Member, after: Member, event: MemberEventName): MemberChange => ({
  member: after,
  event,
  owners: activeOwner(after) - activeOwner(before),
});

export const newMember = (
  input: { email: string; name?: string | null; role: Role },
  id: string,
  now: Date,
  status: 'invited' | 'active' = 'invited',
): Member => ({
  _id: id,
  email: input.email.toLowerCase(),
  name: input.name ?? null,
  role: input.role,
  status,
  invitedAt: now.toISOString(),
  joinedAt: status === 'active' ? now.toISOString() : null,
  removedAt: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

export const acceptInvite = (m: Member, now: Date): MemberChange => {
  if (m.status !== 'invited') throw new ConflictError(`Member is ${m.status}, not invited`, { status: m.status });
  return change(m, { ...m, status: 'active', joinedAt: now.toISOString(), updatedAt: now.toISOString() }, 'joined');
};

/** A role change; the same role is a no-op (undefined). */
export const changeRole = (m: Member, role: Role, now: Date): MemberChange | undefined => {
  if (m.status === 'removed') throw new ConflictError('Member was removed', { status: m.status });
  if (m.role === role) return undefined;
  return change(m, { ...m, role, updatedAt: now.toISOString() }, 'role_changed');
};

export const removeMember = (m: Member, now: Date): MemberChange => {
  if (m.status === 'removed') throw new ConflictError('Member was already removed', { status: m.status });
  return change(m, { ...m, status: 'removed', removedAt: now.toISOString(), updatedAt: now.toISOString() }, 'removed');
};

export const LAST_OWNER_MESSAGE = 'The workspace must keep at least one active owner';
