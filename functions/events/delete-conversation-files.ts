import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import { deleteConversationFiles } from '../../shared/files/files';

/** EventBridge rule target (inbox.conversation.deleted): the files its messages held are deleted, bytes and records. */
export const handler = outboxHandler(async ({ envelope }) => {
  await deleteConversationFiles(
    envelopeTenant(envelope),
    (envelope.data.conversation as { _id: string })._id,
    new Date(envelope.occurredAt),
  );
});
