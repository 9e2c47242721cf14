import { dueSnoozed } from '../../shared/data/conversations-lists';
import { mutateConversation } from '../../shared/data/conversations';
import { wake } from '../../shared/domain/inbox/state-machine';
import type { Conversation } from '../../shared/domain/inbox/conversation';
import { log } from '../../shared/log';

const BATCH = 100;

/**
 * Every minute: opens the snoozed conversations whose time has come, each with its `reopened` event.
 * Waking is conditional on the conversation still being due, so an overlapping run or a conversation
 * changed meanwhile is left alone.
 */
export const handler = async (): Promise<{ woken: number }> => {
  const now = new Date();
  let woken = 0;
  for (;;) {
    const due = await dueSnoozed(now, BATCH);
    let batch = 0;
    for (const { tenant, id } of due) {
      const decide = (c: Conversation) => {
        const change = wake(c, now);
        return change && { change };
      };
      const after = await mutateConversation(tenant, id, decide, now).catch((error: unknown) =>
        log.error('wake failed', { tenant, conversationId: id, error: String(error) }),
      );
      if (after?.status === 'open') batch++;
    }
    woken += batch;
    // A short page is the last one; a page where nothing woke would only repeat itself.
    if (due.length < BATCH || batch === 0) break;
  }
  if (woken > 0) log.info('woke snoozed conversations', { woken });
  return { woken };
};
