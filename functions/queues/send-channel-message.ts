import { consumer } from '../../shared/queues';
import { handleOutgoing, type OutgoingMessage } from '../../shared/channels/outgoing';
import { needsSecretBox } from '../../shared/secrets/box';

needsSecretBox();

/** SQS consumer: sends conversation replies through their channel accounts (partial batch failures). */
export const handler = consumer<OutgoingMessage>('CHANNEL_QUEUE_URL', 'channel send', handleOutgoing, (m) => ({ outgoingId: m._id }));
