import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { messageKey } from '../../shared/data/messages';
import { client, expectError } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';

const env = useTestStack();

const CONV = '/api/v1/inbox/conversations';
const INCOMING = '/api/v1/inbox/messages/incoming';

const tenant = () => env.tenant();

const conversationWith = async (t: Awaited<ReturnType<typeof tenant>>) => {
  const customer = (await t.api.post('/api/v1/contacts/customers', { name: 'Ada' })).body.data.customer;
  return (await t.api.post(CONV, { customerId: customer._id })).body.data.conversation;
};

describe('agent replies and notes', () => {
  it('an outgoing reply counts, stamps lastMessageAt, marks the conversation read and emits inbox.message.sent', async () => {
    const t = await tenant();
    const c = await conversationWith(t);
    const res = await t.api.post(`${CONV}/${c._id}/messages`, { content: 'Hello!' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { message, conversation } = res.body.data;
    expect(message).toMatchObject({
      conversationId: c._id,
      type: 'outgoing',
      private: false,
      content: 'Hello!',
      deliveryStatus: 'pending',
      author: { type: 'token', id: t.tokenId },
      attachments: [],
    });
    expect(conversation).toMatchObject({ messageCount: 1, unreadCount: 0, lastMessageAt: message.createdAt });
    const sent = await outboxEvents(t.workspaceId, 'inbox.message.sent');
    expect(sent).toHaveLength(1);
    expect((sent[0]!.data.message as { _id: string })._id).toBe(message._id);
  });

  it('a long reply is stored packed and answered, listed and sent in its event byte for byte', async () => {
    const t = await tenant();
    const c = await conversationWith(t);
    const content = Array.from({ length: 60 }, (_, i) => `Ligne ${i}: the order #${1000 + i} ships tomorrow, déjà payée ✓`).join('\n');
    const { message } = (await t.api.post(`${CONV}/${c._id}/messages`, { content })).body.data;
    const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: messageKey(t.tenant, message) }));
    expect(Item).not.toHaveProperty('content');
    expect(Buffer.byteLength(Item!.contentZ as string)).toBeLessThan(Buffer.byteLength(content) / 2);
    expect(message.content).toBe(content);
    expect((await t.api.get(`${CONV}/${c._id}/messages`)).body.data.messages[0].content).toBe(content);
    const [sent] = await outboxEvents(t.workspaceId, 'inbox.message.sent');
    expect((sent!.data.message as { content: string }).content).toBe(content);
  });

  it('a private note counts but leaves lastMessageAt alone and emits inbox.note.created', async () => {
    const t = await tenant();
    const c = await conversationWith(t);
    const res = await t.api.post(`${CONV}/${c._id}/messages`, { type: 'note', content: 'VIP customer' });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toMatchObject({ type: 'note', private: true, deliveryStatus: null });
    expect(res.body.data.conversation).toMatchObject({ messageCount: 1, lastMessageAt: null });
    expect(await outboxEvents(t.workspaceId, 'inbox.note.created')).toHaveLength(1);
    expect(await outboxEvents(t.workspaceId, 'inbox.message.sent')).toHaveLength(0);
  });

  it('validates messages field by field', async () => {
    const t = await tenant();
    const c = await conversationWith(t);
    const empty = await t.api.post(`${CONV}/${c._id}/messages`, { type: 'outgoing' });
    expectError(empty, 422, 'VALIDATION_ERROR');
    expect(empty.body.error.details.errors).toEqual([{ path: 'content', message: expect.any(String) }]);
    const bad = await t.api.post(`${CONV}/${c._id}/messages`, {
      type: 'incoming',
      content: 'x'.repeat(10_001),
      attachments: [{ url: 'https://files.example.com/a.png', fileId: 'nope' }],
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'attachments[0].fileId',
      'attachments[0].url',
      'content',
      'type',
    ]);
  });

  it('lists messages oldest first with cursor paging and the exact total', async () => {
    const t = await tenant();
    const c = await conversationWith(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.api.post(`${CONV}/${c._id}/messages`, { content: `m${i}` })).body.data.message._id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.api.get(`${CONV}/${c._id}/messages?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.data.pagination.total).toBe(5);
      seen.push(...res.body.data.messages.map((m: { _id: string }) => m._id));
      cursor = res.body.data.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    const page3 = await t.api.get(`${CONV}/${c._id}/messages?limit=2&page=3`);
    expect(page3.body.data.messages.map((m: { _id: string }) => m._id)).toEqual(ids.slice(4));
  });

  it("never shows or writes another workspace's conversation (404), and needs inbox scopes", async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await conversationWith(other);
    await other.api.post(`${CONV}/${theirs._id}/messages`, { content: 'secret' });
    expectError(await t.api.get(`${CONV}/${theirs._id}/messages`), 404, 'NOT_FOUND');
    expectError(await t.api.post(`${CONV}/${theirs._id}/messages`, { content: 'hi' }), 404, 'NOT_FOUND');
    const reader = client(env.stack.baseUrl, {
      token: (await tokenFor([other.workspaceId], ['inbox:read'])).token,
      workspaceId: other.workspaceId,
    });
    expect((await reader.get(`${CONV}/${theirs._id}/messages`)).status).toBe(200);
    expectError(await reader.post(`${CONV}/${theirs._id}/messages`, { content: 'hi' }), 403, 'FORBIDDEN');
    expectError(await reader.post(INCOMING, { channel: 'sms', customer: { identifier: '+15550001' }, content: 'hi' }), 403, 'FORBIDDEN');
  });
});

describe('incoming messages (channel entry point)', () => {
  it('creates the customer and the conversation on first contact, then threads into the same conversation', async () => {
    const t = await tenant();
    const body = { channel: 'whatsapp', customer: { identifier: '+14155550123', name: 'Zoe', phone: '+14155550123' }, content: 'Hi' };
    const first = await t.api.post(INCOMING, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const { customer, conversation, message } = first.body.data;
    expect(customer).toMatchObject({
      name: 'Zoe',
      phone: '+14155550123',
      identities: [{ channel: 'whatsapp', identifier: '+14155550123' }],
    });
    expect(customer.lastActivityAt).toBe(message.createdAt);
    expect(conversation).toMatchObject({ customerId: customer._id, channel: 'whatsapp', status: 'open', unreadCount: 1, messageCount: 1 });
    expect(message).toMatchObject({ type: 'incoming', deliveryStatus: 'received', author: { type: 'customer', id: customer._id } });
    const second = await t.api.post(INCOMING, { ...body, content: 'Anyone?' });
    expect(second.body.data.conversation).toMatchObject({ _id: conversation._id, unreadCount: 2, messageCount: 2 });
    const reply = await t.api.post(`${CONV}/${conversation._id}/messages`, { content: 'Here!' });
    expect(reply.body.data.conversation.unreadCount).toBe(0);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.created')).toHaveLength(1);
    expect(await outboxEvents(t.workspaceId, 'inbox.conversation.created')).toHaveLength(1);
    expect(await outboxEvents(t.workspaceId, 'inbox.message.received')).toHaveLength(2);
  });

  it('recognises a known customer by email and adds the new channel identity to them', async () => {
    const t = await tenant();
    const known = (await t.api.post('/api/v1/contacts/customers', { name: 'Kim', email: 'kim@example.com' })).body.data.customer;
    const res = await t.api.post(INCOMING, {
      channel: 'email',
      customer: { identifier: 'kim@example.com', email: 'KIM@example.com' },
      content: 'Hello',
    });
    expect(res.body.data.customer._id).toBe(known._id);
    const got = (await t.api.get(`/api/v1/contacts/customers/${known._id}`)).body.data.customer;
    expect(got.identities).toEqual([{ channel: 'email', identifier: 'kim@example.com' }]);
  });

  it('reopens a closed or snoozed conversation with one reopened event each', async () => {
    const t = await tenant();
    const body = { channel: 'sms', customer: { identifier: '+15550100' }, content: 'One' };
    const { conversation } = (await t.api.post(INCOMING, body)).body.data;
    await t.api.post(`${CONV}/${conversation._id}/status`, { status: 'closed' });
    const reopened = await t.api.post(INCOMING, { ...body, content: 'Two' });
    expect(reopened.body.data.conversation).toMatchObject({ _id: conversation._id, status: 'open' });
    await t.api.post(`${CONV}/${conversation._id}/status`, {
      status: 'snoozed',
      snoozedUntil: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const woken = await t.api.post(INCOMING, { ...body, content: 'Three' });
    expect(woken.body.data.conversation).toMatchObject({ status: 'open', snoozedUntil: null });
    const events = await outboxEvents(t.workspaceId, 'inbox.conversation.reopened');
    expect(events.map((e) => e.changes!.status).sort()).toEqual([
      ['closed', 'open'],
      ['snoozed', 'open'],
    ]);
  });

  it('records a redelivered channel message (same externalId) once', async () => {
    const t = await tenant();
    const body = { channel: 'web', customer: { identifier: 'visitor-1' }, content: 'Hi', externalId: 'wamid.1' };
    const results = await Promise.all([t.api.post(INCOMING, body), t.api.post(INCOMING, body)]);
    const again = await t.api.post(INCOMING, body);
    const ids = [...results, again].map((r) => r.body.data.message._id);
    expect(new Set(ids).size).toBe(1);
    expect(again.body.data.duplicate).toBe(true);
    expect(await outboxEvents(t.workspaceId, 'inbox.message.received')).toHaveLength(1);
    expect(again.body.data.conversation.messageCount).toBe(1);
  });

  it('refuses messages from a blocked customer with 409', async () => {
    const t = await tenant();
    const body = { channel: 'sms', customer: { identifier: '+15550200' }, content: 'Spam' };
    const { customer } = (await t.api.post(INCOMING, body)).body.data;
    await t.api.post(`/api/v1/contacts/customers/${customer._id}/block`);
    expectError(await t.api.post(INCOMING, body), 409, 'CONFLICT');
  });

  it("validates the sender and content, and refuses a conversation that is not the sender's", async () => {
    const t = await tenant();
    const bad = await t.api.post(INCOMING, { channel: 'pigeon', customer: { identifier: '', phone: '555' } });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'channel',
      'customer.identifier',
      'customer.phone',
    ]);
    const someone = await conversationWith(t);
    const wrong = await t.api.post(INCOMING, { channel: 'api', customer: { identifier: 'x' }, content: 'hi', conversationId: someone._id });
    expectError(wrong, 422, 'VALIDATION_ERROR');
    expect(wrong.body.error.details.errors[0].path).toBe('conversationId');
  });
});
