import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import { deleteConversationContents } from '../../shared/inbox/purge-conversation';
import { direct } from '../../shared/data/unit';

/** EventBridge rule target (inbox.conversation.deleted): the files its messages held (bytes and records), then its messages. */
export const handler = outboxHandler(async ({ envelope }) => {
  await deleteConversationContents(
    direct,
    envelopeTenant(envelope),
    (envelope.data.conversation as { _id: string })._id,
    new Date(envelope.occurredAt),
  );
});
