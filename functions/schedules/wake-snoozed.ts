import { dueSnoozed } from '../../shared/data/conversations-lists';
import { mutateConversation } from '../../shared/data/conversations';
import { drainDue } from '../../shared/data/timers';
import { wake } from '../../shared/domain/inbox/state-machine';
import type { Conversation } from '../../shared/domain/inbox/conversation';
import { scheduled } from '../../shared/observability/invocation';

/**
 * Every minute: opens the snoozed conversations whose time has come, each with its `reopened` event.
 * Waking is conditional on the conversation still being due, so an overlapping run or a conversation
 * changed meanwhile is left alone.
 */
export const handler = scheduled(async (): Promise<{ woken: number }> => {
  const now = new Date();
  const decide = (c: Conversation) => {
    const change = wake(c, now);
    return change && { change };
  };
  const woken = await drainDue(
    'wake snoozed',
    (limit) => dueSnoozed(now, limit),
    async ({ tenant, id }) => (await mutateConversation(tenant, id, decide, now)).status === 'open',
  );
  return { woken };
});
