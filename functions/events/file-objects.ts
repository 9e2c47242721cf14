import { envelopeTenant } from '../../shared/events/envelope';
import { outboxHandler } from '../../shared/events/from-bus';
import { objectFollowsFile } from '../../shared/files/files';

/** EventBridge rule target (inbox.file.ready, inbox.file.deleted): the file's object follows its record. */
export const handler = outboxHandler(async ({ envelope }) => {
  const change = envelope.eventType === 'inbox.file.ready' ? 'ready' : 'deleted';
  await objectFollowsFile(envelopeTenant(envelope), change, (envelope.data.file as { _id: string })._id);
});
