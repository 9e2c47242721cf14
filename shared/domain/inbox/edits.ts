import { ConflictError } from '../errors';
import type { Change, Conversation, Priority } from './conversation';

/** Assigning the agent who already has the conversation is refused like any no-op transition. */
export const assign = (c: Conversation, assigneeId: string, now: Date): Change => {
  if (c.assigneeId === assigneeId) throw new ConflictError('Conversation is already assigned to this agent', { assigneeId });
  return { conversation: { ...c, assigneeId, updatedAt: now.toISOString() }, events: [{ name: 'assigned', fields: ['assigneeId'] }] };
};

export const unassign = (c: Conversation, now: Date): Change => {
  if (c.assigneeId === null) throw new ConflictError('Conversation is not assigned', { assigneeId: null });
  return {
    conversation: { ...c, assigneeId: null, updatedAt: now.toISOString() },
    events: [{ name: 'unassigned', fields: ['assigneeId'] }],
  };
};

export interface ConversationEdit {
  subject?: string | null;
  priority?: Priority;
}

/**
 * A PATCH: a priority change emits `priority_changed`, any other changed field `updated`; a PATCH
 * that changes nothing emits nothing.
 */
export const edit = (c: Conversation, patch: ConversationEdit, now: Date): Change => {
  const after = { ...c, ...patch };
  const changed = (Object.keys(patch) as (keyof ConversationEdit)[]).filter((k) => after[k] !== c[k]);
  if (changed.length === 0) return { conversation: c, events: [] };
  const others = changed.filter((k) => k !== 'priority');
  return {
    conversation: { ...after, updatedAt: now.toISOString() },
    events: [
      ...(others.length > 0 ? [{ name: 'updated' as const, fields: others }] : []),
      ...(changed.includes('priority') ? [{ name: 'priority_changed' as const, fields: ['priority' as const] }] : []),
    ],
  };
};
