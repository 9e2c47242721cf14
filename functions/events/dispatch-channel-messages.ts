import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import type { Conversation } from '../../shared/domain/inbox/conversation';
import type { Message } from '../../shared/domain/inbox/message';
import { enqueueOutgoing } from '../../shared/channels/queue';
import { direct } from '../../shared/data/unit';

/**
 * EventBridge rule target (inbox.message.sent): a reply recorded on a conversation with a channel account is queued for
 * sending. The outbox event is the durable record that the reply must go out (the bus delivers it at
 * least once; the send worker's claim makes a repeat harmless).
 */
export const handler = outboxHandler(async ({ envelope }) => {
  const { message, conversation } = envelope.data as { message: Message; conversation: Conversation };
  if (!conversation.channelId) return;
  await enqueueOutgoing(direct, {
    tenant: envelopeTenant(envelope),
    _id: message._id,
    conversationId: message.conversationId,
    createdAt: message.createdAt,
  });
});
