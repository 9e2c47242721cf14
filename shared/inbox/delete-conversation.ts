import type { Tenant } from '../domain/auth/tenant';
import { objectKey } from '../domain/files/file';
import { deleteObject } from '../aws/s3';
import { conversationContents, getConversation } from '../data/conversations';
import { conversationRemoval } from './conversation-removal';
import { conversationFiles, fileRemoval } from '../data/files';
import { isConditionFailure, lostRace, retryOnConflict } from '../data/retry';
import { deleteItem, type Write } from '../data/transact';
import type { Unit } from '../data/unit';

/** What a removal adds to the caller's record of progress, written in the removal's own transaction. */
export type Tally = (counted: { conversations?: number; messages?: number; files?: number }, ids: readonly string[]) => Write;

/** Items per transaction, one under DynamoDB's 100 to leave room for the tally. */
const CHUNK = 99;

const contentsChunk = async (tenant: Tenant, id: string) => (await conversationContents(tenant, id)).slice(0, CHUNK);

/** What was already removed, by a run beside this one: found gone, not counted. */
const ignoreConditionFailure = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};

/**
 * Deletes a conversation whole and silently (no event names what is deleted): its files' bytes then their
 * records, every other item of its partition (messages, notes, its email thread), and last the conversation
 * with its list memberships, tag links and its customer's count, so every list total stays exact. Each removal
 * carries `tally`; a removal already made is found gone and not counted again, so it is safe to run again
 * from any point a crash left it at.
 */
export const deleteConversationWhole = async (unit: Unit, tenant: Tenant, id: string, now: Date, tally: Tally): Promise<void> => {
  for (const file of await conversationFiles(tenant, id)) {
    await deleteObject(objectKey(tenant, file._id));
    await unit
      .commit([...fileRemoval(tenant, file, { condition: 'attribute_exists(pk)' }), tally({ files: 1 }, [file._id])])
      .catch(ignoreConditionFailure);
  }
  // Each delete is conditional, so a run beside this one (a message delivered twice) makes the transaction fail
  // instead of counting the same messages again; the partition is then read afresh.
  for (let chunk = await contentsChunk(tenant, id); chunk.length; chunk = await contentsChunk(tenant, id)) {
    await unit
      .commit([
        ...chunk.map((c) => deleteItem(c.key, { condition: 'attribute_exists(pk)' })),
        tally({ messages: chunk.filter((c) => c.message).length }, []),
      ])
      .catch(ignoreConditionFailure);
  }
  await retryOnConflict(async () => {
    const stored = await getConversation(tenant, id);
    if (stored) await unit.commit([...(await conversationRemoval(tenant, stored, now)), tally({ conversations: 1 }, [id])], lostRace);
  });
};
