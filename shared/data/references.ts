import { Refused } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import { conversationKey, customerKey, leadKey } from './entity-keys';
import { member } from './registry/team';
import { conditionCheck, type Write } from './transact';

/**
 * References: the checks a write adds, inside its own transaction, that the records it refers to exist in
 * its tenant (another tenant's id is simply unknown) or, for an assignee, are active members. A record
 * removed concurrently fails the write instead of slipping past a read. Checks only: no read, no decision.
 */

/**
 * The check that `id` names an active member of this tenant, for every write that stores an assignee.
 */
export const activeMemberCheck = (tenant: Tenant, id: string): Write =>
  conditionCheck(member.key({ tenant, id }), {
    condition: '#status = :active',
    names: { '#status': 'status' },
    values: { ':active': 'active' },
    onFail: () => new Refused('assignee_not_active', 'Must be an active member of this workspace'),
  });

export interface Links {
  customerId?: string | null;
  conversationId?: string | null;
  leadId?: string | null;
  assigneeId?: string | null;
}

const KEYS = { customerId: customerKey, conversationId: conversationKey, leadId: leadKey } as const;
const NAMES = { customerId: 'customer', conversationId: 'conversation', leadId: 'lead' } as const;
const REFUSALS = { customerId: 'no_such_customer', conversationId: 'no_such_conversation', leadId: 'no_such_lead' } as const;

/**
 * The checks that the customer, conversation and lead a record links to exist in this tenant, and that its
 * assignee is an active member: refused otherwise. Only links set to an id are checked; pass only the links that change.
 */
export const linkChecks = (tenant: Tenant, links: Links): Write[] => [
  ...(Object.keys(KEYS) as (keyof typeof KEYS)[]).flatMap((field) => {
    const id = links[field];
    if (!id) return [];
    return [
      conditionCheck(KEYS[field](tenant, id), {
        condition: 'attribute_exists(pk)',
        onFail: () => new Refused(REFUSALS[field], `No such ${NAMES[field]} in this workspace`),
      }),
    ];
  }),
  ...(links.assigneeId ? [activeMemberCheck(tenant, links.assigneeId)] : []),
];

/** The links of `after` that differ from `before`: the ones a change must check. */
export const changedLinks = (before: Links, after: Links): Links =>
  Object.fromEntries(
    ([...Object.keys(KEYS), 'assigneeId'] as (keyof Links)[]).filter((f) => after[f] !== before[f]).map((f) => [f, after[f]]),
  );
