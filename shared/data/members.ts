import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import { LAST_OWNER_MESSAGE, type Member, type MemberStatus } from '../domain/auth/member';
import { byCreation } from '../domain/lists';
import { bump, workspaceCounter } from './counters';
import { membershipWrites, readItems, readList } from './lists';
import type { PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { member as memberEntity, memberEmail } from './registry/team';

/**
 * Members, per tenant like every entity (keys: registry/team.ts), versioned. An email is claimed by its
 * claim item while its member is not removed. The count of active owners
 * (`COUNTER#owners`) moves in the same transaction as the member, and a decrement is conditional on
 * leaving at least one: two concurrent demotions of the last two owners cannot both commit.
 * Lists: `all` and `status:<status>`, oldest first.
 */
const emailClaim = (tenant: Tenant, email: string) => memberEmail.key({ tenant, email: email.toLowerCase() });
const ownersCounter = (tenant: Tenant) => workspaceCounter(tenant, 'owners');

const storedOf = (item: Record<string, unknown>): StoredMember => {
  const { version, ...member } = memberEntity.parse(item);
  return { member, version };
};

const fromItem = (item: Record<string, unknown>): Member => storedOf(item).member;

const listsOf = (m: Member) => byCreation(['all', `status:${m.status}`], m);

/** The owner count follows a change by `delta`; a decrement must leave an active owner (409 otherwise). */
export const ownerCountWrites = (tenant: Tenant, delta: number): Write[] => {
  if (delta > 0) return [bump(ownersCounter(tenant), { n: delta })];
  if (delta === 0) return [];
  const counter = ownersCounter(tenant);
  return [
    updateItem({ pk: counter.pk, sk: counter.sk }, 'ADD #n :d', {
      names: { '#n': 'n' },
      values: { ':d': delta, ':min': 1 - delta },
      condition: '#n >= :min',
      onFail: () => new Refused('last_owner', LAST_OWNER_MESSAGE),
    }),
  ];
};

export interface StoredMember {
  member: Member;
  version: number;
}

export const getStoredMember = async (tenant: Tenant, id: string): Promise<StoredMember | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: memberEntity.key({ tenant, id }), ConsistentRead: true }),
  );
  return Item && storedOf(Item);
};

/** The writes that store a new member: its item, its email's claim (refused when taken: 409) and its lists. */
export const memberCreation = (tenant: Tenant, member: Member): Write[] => [
  createItem({ ...memberEntity.key({ tenant, id: member._id }), type: 'MEMBER', version: 1, ...member }),
  createItem(
    { ...emailClaim(tenant, member.email), type: 'MEMBER_EMAIL', memberId: member._id },
    () => new Refused('member_email_taken', 'A member with this email already exists', { email: member.email }),
  ),
  ...membershipWrites(tenant, 'member', member._id, [], listsOf(member)),
];

/** The writes that store `after` over the version read, with `set` (index attributes); its lists follow it. */
export const memberUpdate = (tenant: Tenant, stored: StoredMember, after: Member, set?: Record<string, unknown>): Write[] => [
  versionedUpdate(memberEntity.key({ tenant, id: after._id }), stored.version, stored.member, after, { set }),
  ...membershipWrites(tenant, 'member', after._id, listsOf(stored.member), listsOf(after)),
];

/** The email claim a removal releases, so the address can be invited again. */
export const releaseEmail = (tenant: Tenant, m: Member): Write => deleteItem(emailClaim(tenant, m.email));

export const membersPage = async (tenant: Tenant, filters: { status?: MemberStatus }, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'member', filters.status ? `status:${filters.status}` : 'all', page);
  return {
    members: await readItems(
      ids.map((id) => memberEntity.key({ tenant, id })),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** Whether `id` names an active member now (a read, for queries such as availability; writes use `activeMemberCheck`). */
export const isActiveMember = async (tenant: Tenant, id: string): Promise<boolean> =>
  (await getStoredMember(tenant, id))?.member.status === 'active';
