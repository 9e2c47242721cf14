import type { Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
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

/**
 * Checks, inside the transaction that stores them, that the customer, conversation and lead a CRM record
 * links to exist in this workspace (another workspace's id is simply unknown), and that its assignee is an
 * active member: 422 on the field otherwise. Only links set to an id are checked; pass only the links that change.
 */
export const linkChecks = (ws: Tenant, links: Links): Write[] => [
  ...(Object.keys(KEYS) as (keyof typeof KEYS)[]).flatMap((field) => {
    const id = links[field];
    if (!id) return [];
    return [
      conditionCheck(KEYS[field](ws, id), {
        condition: 'attribute_exists(pk)',
        onFail: () => new ValidationError([{ path: field, message: `No such ${NAMES[field]} in this workspace` }]),
      }),
    ];
  }),
  ...(links.assigneeId ? [activeMemberCheck(ws, links.assigneeId)] : []),
];

/** The links of `after` that differ from `before`: the ones a change must check. */
export const changedLinks = (before: Links, after: Links): Links =>
  Object.fromEntries(([...Object.keys(KEYS), 'assigneeId'] as (keyof Links)[]).filter((f) => after[f] !== before[f]).map((f) => [f, after[f]]));
