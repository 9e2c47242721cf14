import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { Refused, Missing } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import { LAST_OWNER_MESSAGE, newMember, type Member, type MemberChange, type MemberStatus, type Role } from '../domain/auth/member';
import { bump, workspaceCounter } from './counters';
import { tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import { outboxItem } from './outbox';
import type { PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { conditionCheck, createItem, deleteItem, transact, updateItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { member as memberView } from '../views/auth';

/**
 * Members, per tenant like every entity: pk=<tenant>#MEMBER#<id> sk=MEMBER (versioned). An email is
 * claimed by pk=<tenant>#MEMBEREMAIL#<email> while its member is not removed. The count of active owners
 * (`COUNTER#owners`) moves in the same transaction as the member, and a decrement is conditional on
 * leaving at least one: two concurrent demotions of the last two owners cannot both commit.
 * Lists: `all` and `status:<status>`, oldest first.
 */
export const memberKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.MEMBER, id), sk: K.MEMBER });
const emailKey = (tenant: Tenant, email: string) => ({ pk: tenantPk(tenant, K.MEMBEREMAIL, email.toLowerCase()), sk: K.EMAIL });
const ownersCounter = (tenant: Tenant) => workspaceCounter(tenant, 'owners');

const fromItem: (item: Record<string, unknown>) => Member = itemCodec(memberView);

const listsOf = (m: Member) => ['all', `status:${m.status}`].map((list) => ({ list, order: `${m.createdAt}#${m._id}` }));

/**
 * The check, inside the transaction that stores an assignee, that `id` names an active member of this
 * tenant: a member removed concurrently fails the write instead of slipping past a read.
 */
export const activeMemberCheck = (tenant: Tenant, id: string): Write =>
  conditionCheck(memberKey(tenant, id), {
    condition: '#status = :active',
    names: { '#status': 'status' },
    values: { ':active': 'active' },
    onFail: () => new Refused('assignee_not_active', 'Must be an active member of this workspace'),
  });

/** The owner count follows the change; a decrement must leave an active owner (409 otherwise). */
const ownerWrites = (tenant: Tenant, delta: number): Write[] => {
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

const memberEvent = (tenant: Tenant, before: Member | undefined, change: MemberChange, now: Date): Write => {
  const fields = change.event === 'role_changed' ? (['role'] as const) : change.event === 'invited' ? [] : (['status'] as const);
  const pick = (m: Member) => Object.fromEntries(fields.map((f) => [f, m[f]]));
  const changes = before ? diff(pick(before), pick(change.member)) : undefined;
  return outboxItem(buildEnvelope(`auth.member.${change.event}`, tenant, { member: change.member }, { changes, now }));
};

const getStored = async (tenant: Tenant, id: string): Promise<{ member: Member; version: number } | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: memberKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { member: fromItem(Item), version: Item.version as number } : undefined;
};

export const getMember = async (tenant: Tenant, id: string): Promise<Member> => {
  const stored = await getStored(tenant, id);
  if (!stored) throw new Missing('Member');
  return stored.member;
};

/** Invites a member (or, for a workspace's first owner, adds an active one): 409 when the email is already a member's. */
export const addMember = async (
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
    transact(
      [
        createItem({ ...memberKey(tenant, member._id), type: 'MEMBER', version: 1, ...member }),
        createItem(
          { ...emailKey(tenant, member.email), type: 'MEMBER_EMAIL', memberId: member._id },
          () => new Refused('member_email_taken', 'A member with this email already exists', { email: member.email }),
        ),
        ...membershipWrites(tenant, 'member', member._id, [], listsOf(member)),
        ...ownerWrites(tenant, change.owners),
        memberEvent(tenant, undefined, change, now),
      ],
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
  tenant: Tenant,
  id: string,
  decide: (m: Member) => MemberChange | undefined,
  now: Date,
  extra: (m: Member) => { writes?: Write[]; set?: Record<string, unknown> } = () => ({}),
): Promise<Member> =>
  retryOnConflict(async () => {
    const stored = await getStored(tenant, id);
    if (!stored) throw new Missing('Member');
    const change = decide(stored.member);
    if (!change) return stored.member;
    const more = extra(stored.member);
    await transact(
      [
        versionedUpdate(memberKey(tenant, id), stored.version, stored.member, change.member, { set: more.set }),
        ...membershipWrites(tenant, 'member', id, listsOf(stored.member), listsOf(change.member)),
        ...ownerWrites(tenant, change.owners),
        memberEvent(tenant, stored.member, change, now),
        ...(more.writes ?? []),
      ],
      lostRace,
    );
    return change.member;
  });

/** The email claim a removal releases, so the address can be invited again. */
export const releaseEmail = (tenant: Tenant, m: Member): Write => deleteItem(emailKey(tenant, m.email));

export const listMembers = async (tenant: Tenant, filters: { status?: MemberStatus }, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'member', filters.status ? `status:${filters.status}` : 'all', page);
  return {
    members: await readItems(
      ids.map((id) => memberKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** Whether `id` names an active member now (a read, for queries such as availability; writes use `activeMemberCheck`). */
export const isActiveMember = async (tenant: Tenant, id: string): Promise<boolean> =>
  (await getStored(tenant, id))?.member.status === 'active';
