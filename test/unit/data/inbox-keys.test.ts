import { describe, expect, it } from 'vitest';
import { liveTenant, testTenant } from '../../../shared/domain/auth/tenant';
import type { Conversation } from '../../../shared/domain/inbox/conversation';
import { closedIndex, createdItems, listPartition, storedOf } from '../../../shared/data/conversations';
import { conversationKey } from '../../../shared/data/entity-keys';
import { fromItem as messageOf, messageKey, storedMessage } from '../../../shared/data/messages';
import { conversation as conversationEntity, message as messageEntity } from '../../../shared/data/registry/inbox';
import { packText } from '../../../shared/packed-text';

const WS = '65f0c0ffee00000000000001';
const conversation: Conversation = {
  _id: '65f0c0ffee000000000000c1',
  number: 7,
  customerId: '65f0c0ffee000000000000a1',
  channel: 'email',
  channelId: null,
  status: 'snoozed',
  snoozedUntil: '2026-02-01T09:00:00.000Z',
  assigneeId: null,
  priority: 'medium',
  subject: 'Order',
  lastMessageAt: null,
  unreadCount: 0,
  messageCount: 0,
  tagIds: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const message = { _id: '65f0c0ffee000000000000d1', conversationId: conversation._id, createdAt: '2026-01-01T00:00:01.000Z' };

/**
 * The keys as the inbox's repositories spelled them before the declarations (registry/inbox.ts): items stored
 * then are read, listed and deleted by the same keys now, so each is written out here as it was, not derived.
 */
describe.each([liveTenant(WS), testTenant(WS)])('the inbox keys of tenant %s', (tenant) => {
  const c = conversation;

  it('are the keys stored before their declaration, for the conversation, its list entries and its membership item', () => {
    const [item, membership] = createdItems(tenant, c).items;
    expect(item).toMatchObject({
      pk: `WS#${tenant}#CONV#${c._id}`,
      sk: 'CONVERSATION',
      type: 'CONVERSATION',
      gsi1pk: 'SNOOZED',
      gsi1sk: `${c.snoozedUntil}#${tenant}#${c._id}`,
      gsi3pk: `WS#${tenant}#CONVLIST#status:snoozed`,
      gsi3sk: `${c.createdAt}#${c._id}`,
      gsi4pk: `WS#${tenant}#CONVLIST#assignee:none:status:snoozed`,
      gsi4sk: `${c.createdAt}#${c._id}`,
    });
    expect(membership).toEqual({
      pk: `WS#${tenant}#CONVLIST#customer:${c.customerId}`,
      sk: `${c.createdAt}#${c._id}`,
      type: 'CONV_LIST',
      conversationId: c._id,
      gsi3pk: `WS#${tenant}#CONVLIST#channel:email`,
      gsi3sk: `${c.createdAt}#${c._id}`,
    });
    expect(conversationKey(tenant, c._id)).toEqual({ pk: `WS#${tenant}#CONV#${c._id}`, sk: 'CONVERSATION' });
    expect(listPartition(tenant, 'status:closed')).toBe(`WS#${tenant}#CONVLIST#status:closed`);
    expect(closedIndex(tenant, c.updatedAt, c._id)).toEqual({ gsi2pk: `WS#${tenant}#CLOSED`, gsi2sk: `${c.updatedAt}#${c._id}` });
  });

  it("are the keys stored before for a message, in its conversation's partition", () => {
    expect(messageKey(tenant, message)).toEqual({
      pk: `WS#${tenant}#CONV#${c._id}`,
      sk: `MSG#${message.createdAt}#${message._id}`,
    });
    expect(messageEntity.prefix('sk', {})).toBe('MSG#');
  });

  it('read back the tenant and conversation of a timer index entry, and the id of a list entry', () => {
    expect(conversationEntity.read('gsi1sk', `${c.snoozedUntil}#${tenant}#${c._id}`)).toEqual({
      snoozedUntil: c.snoozedUntil,
      tenant,
      id: c._id,
    });
    expect(conversationEntity.read('gsi4sk', `${c.createdAt}#${c._id}`).id).toBe(c._id);
  });
});

describe('items stored before their declaration', () => {
  const tenant = liveTenant(WS);

  it('read a conversation stored before its list entries and channel entry, as the API answers it', () => {
    const { tagIds: _tags, ...fields } = conversation;
    const stored = storedOf({ ...conversationKey(tenant, conversation._id), type: 'CONVERSATION', version: 3, ...fields });
    expect(stored).toEqual({ conversation, version: 3, indexed: [], channelEntry: false });
    expect(Object.keys(stored.conversation)).toEqual(Object.keys(conversation));
  });

  it('read a message with its type, its packed content, its legacy links and its send state, its fields in the order answered', () => {
    const content = 'A long reply. '.repeat(80);
    const { contentZ } = packText('content', content);
    const item = {
      ...messageKey(tenant, message),
      ...message,
      type: 'MESSAGE',
      messageType: 'outgoing',
      private: false,
      contentZ,
      attachments: [{ url: 'https://example.com/a.pdf', name: 'a.pdf', contentType: 'application/pdf', size: 3 }],
      deliveryStatus: 'pending',
      failureReason: null,
      author: { type: 'token', id: null },
      externalId: null,
      sendAttempts: 2,
      sendLeaseUntil: 1_700_000_000_000,
    };
    const read = storedMessage(item);
    expect(read.message).toEqual({
      ...message,
      type: 'outgoing',
      private: false,
      content,
      attachments: [{ url: 'https://example.com/a.pdf', name: 'a.pdf', contentType: 'application/pdf', size: 3, legacy: true }],
      deliveryStatus: 'pending',
      failureReason: null,
      author: { type: 'token', id: null },
      externalId: null,
    });
    expect(Object.keys(messageOf(item))).toEqual([
      '_id',
      'conversationId',
      'type',
      'private',
      'content',
      'attachments',
      'deliveryStatus',
      'failureReason',
      'author',
      'externalId',
      'createdAt',
    ]);
    expect(read.send).toEqual({ attempts: 2, leaseUntil: 1_700_000_000_000, notBefore: undefined, providerMessageId: undefined });
    expect(() => storedMessage({ ...item, sendAttempts: '2' })).toThrow();
  });
});
