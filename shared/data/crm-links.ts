import { Refused } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import { conversationKey, customerKey, leadKey } from './entity-keys';
import { activeMemberCheck } from './members';
import { conditionCheck, type Write } from './transact';

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
 * Checks, inside the transaction that stores them, that the customer, conversation and lead a CRM record
 * links to exist in this workspace (another workspace's id is simply unknown), and that its assignee is an
 * active member: refused otherwise. Only links set to an id are checked; pass only the links that change.
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
