import type { Conversation } from '../domain/inbox/conversation';
import { wake } from '../domain/inbox/state-machine';
import { dueSnoozed } from '../data/conversations-lists';
import { drainDue } from '../data/timers';
import { mutateConversation } from './conversations';
import type { Unit } from '../data/unit';

/**
 * Opens the snoozed conversations due by `now`, each with its `reopened` event, and counts them. Waking is
 * conditional on the conversation still being due, so an overlapping run or a conversation changed meanwhile
 * is left alone.
 */
export const wakeDueSnoozed = (unit: Unit, now: Date): Promise<number> => {
  const decide = (c: Conversation) => {
    const change = wake(c, now);
    return change && { change };
  };
  return drainDue(
    'wake snoozed',
    (limit) => dueSnoozed(now, limit),
    async ({ tenant, id }) => (await mutateConversation(unit, tenant, id, decide, now)).status === 'open',
  );
};
