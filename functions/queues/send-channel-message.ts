import { consumer } from '../../shared/queues';
import { handleOutgoing } from '../../shared/channels/outgoing';
import { channelQueue } from '../../shared/channels/queue';
import { needsSecretBox } from '../../shared/secrets/box';

needsSecretBox();

/** SQS consumer: sends conversation replies through their channel accounts (partial batch failures). */
export const handler = consumer(channelQueue, handleOutgoing, (m) => ({ outgoingId: m._id }));
