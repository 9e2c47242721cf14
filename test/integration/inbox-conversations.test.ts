import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/domain/auth/scopes';
import { handler as wakeSnoozed } from '../../functions/schedules/wake-snoozed';
import { client, expectError } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { agentId } from '../support/members';
import { useTestStack } from '../support/stack';
import { conversationKey } from '../../shared/data/entity-keys';
import { queryPage } from '../../shared/data/query';
import { listPartition } from '../../shared/data/conversations';
import { conversationList } from '../../shared/data/registry/inbox';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { tokenFor } from '../support/tenants';

const env = useTestStack();

const CONV = '/api/v1/inbox/conversations';

/** A fresh workspace (fresh rate-limit budget) with one customer. */
const tenant = async (scopes: Scope[] = ['admin:all']) => {
  const t = await env.tenant(scopes);
  const { api } = t;
  const customer = (await api.post('/api/v1/contacts/customers', { name: 'Ada Lovelace' })).body.data.customer;
  const open = async (body: Record<string, unknown> = {}) => {
    const res = await api.post(CONV, { customerId: customer._id, ...body });
    expect(res.status).toBe(201);
    return res.body.data.conversation;
  };
  return { ...t, api, customer, open };
};

/** Outbox events in the order they happened (event ids only order by the second). */
const events = async (ws: string, type?: string) => (await outboxEvents(ws, type)).sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));

const eventsFor = async (ws: string, type: string, id: string) =>
  (await events(ws, type)).filter((e) => (e.data.conversation as { _id: string })._id === id);

describe('creating and reading conversations', () => {
  it('creates an open conversation with per-workspace display numbers and one created event', async () => {
    const t = await tenant();
    const first = await t.open({ channel: 'email', subject: 'Refund', priority: 'high' });
    const second = await t.open();
    expect(first).toMatchObject({
      customerId: t.customer._id,
      channel: 'email',
      status: 'open',
      priority: 'high',
      subject: 'Refund',
      assigneeId: null,
      snoozedUntil: null,
      unreadCount: 0,
      messageCount: 0,
      lastMessageAt: null,
      tagIds: [],
      number: 1,
    });
    expect(second).toMatchObject({ number: 2, channel: 'api', priority: 'none' });
    expect(await eventsFor(t.workspaceId, 'inbox.conversation.created', first._id)).toHaveLength(1);
    const got = await t.api.get(`${CONV}/${first._id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.conversation).toEqual(first);
  });

  it('refuses an unknown customer, including one from another workspace, with 422 on customerId', async () => {
    const t = await tenant();
    const other = await tenant();
    for (const customerId of ['0123456789abcdef01234567', other.customer._id]) {
      const res = await t.api.post(CONV, { customerId });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path: 'customerId', message: expect.any(String) }]);
    }
  });

  it('reports every invalid field with its own path, and a missing customerId as 400', async () => {
    const t = await tenant();
    const res = await t.api.post(CONV, { customerId: t.customer._id, channel: 'fax', priority: 'extreme', color: 'red' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual(['channel', 'color', 'priority']);
    expectError(await t.api.post(CONV, { channel: 'email' }), 400, 'BAD_REQUEST');
  });

  it('answers 404 for an id from another workspace and for a malformed id, never leaking the other tenant', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.open();
    for (const path of [`${CONV}/${theirs._id}`, `${CONV}/not-an-id`]) {
      const res = await t.api.get(path);
      expectError(res, 404, 'NOT_FOUND');
      expect(JSON.stringify(res.body)).not.toContain(other.customer._id);
    }
    expectError(await t.api.post(`${CONV}/${theirs._id}/status`, { status: 'closed' }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`${CONV}/${theirs._id}`), 404, 'NOT_FOUND');
    expect((await other.api.get(`${CONV}/${theirs._id}`)).body.data.conversation.status).toBe('open');
  });

  it('needs inbox:read to read and inbox:write to change (403 FORBIDDEN otherwise)', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const conversation = await t.open();
    const reader = client(env.stack.baseUrl, {
      token: (await tokenFor([t.workspaceId], ['inbox:read'])).token,
      workspaceId: t.workspaceId,
    });
    const contacts = client(env.stack.baseUrl, {
      token: (await tokenFor([t.workspaceId], ['contacts:read', 'contacts:write'])).token,
      workspaceId: t.workspaceId,
    });
    expect((await reader.get(CONV)).status).toBe(200);
    expect((await reader.get(`${CONV}/${conversation._id}`)).status).toBe(200);
    expectError(await reader.post(CONV, { customerId: t.customer._id }), 403, 'FORBIDDEN');
    expectError(await reader.post(`${CONV}/${conversation._id}/status`, { status: 'closed' }), 403, 'FORBIDDEN');
    expectError(await reader.post(`${CONV}/${conversation._id}/assign`, { assigneeId: AGENT }), 403, 'FORBIDDEN');
    expectError(await reader.patch(`${CONV}/${conversation._id}`, { priority: 'low' }), 403, 'FORBIDDEN');
    expectError(await reader.delete(`${CONV}/${conversation._id}`), 403, 'FORBIDDEN');
    expectError(await contacts.get(CONV), 403, 'FORBIDDEN');
  });
});

describe('the status state machine', () => {
  const transition = async (t: Awaited<ReturnType<typeof tenant>>, id: string, body: Record<string, unknown>) =>
    t.api.post(`${CONV}/${id}/status`, body);

  it('walks open → pending → open → snoozed → closed → open, one event per step with changes', async () => {
    const t = await tenant();
    const c = await t.open();
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const steps: [Record<string, unknown>, string, string][] = [
      [{ status: 'pending' }, 'inbox.conversation.status_changed', 'open'],
      [{ status: 'open' }, 'inbox.conversation.status_changed', 'pending'],
      [{ status: 'snoozed', snoozedUntil: until }, 'inbox.conversation.snoozed', 'open'],
      [{ status: 'closed' }, 'inbox.conversation.closed', 'snoozed'],
      [{ status: 'open' }, 'inbox.conversation.reopened', 'closed'],
    ];
    for (const [body, event, from] of steps) {
      const res = await transition(t, c._id, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.conversation.status).toBe(body.status);
      const events = await eventsFor(t.workspaceId, event, c._id);
      expect(events.at(-1)!.changes!.status).toEqual([from, body.status]);
    }
    const all = (await events(t.workspaceId)).filter((e) => e.eventType.startsWith('inbox.conversation.'));
    expect(all.map((e) => e.eventType)).toEqual([
      'inbox.conversation.created',
      'inbox.conversation.status_changed',
      'inbox.conversation.status_changed',
      'inbox.conversation.snoozed',
      'inbox.conversation.closed',
      'inbox.conversation.reopened',
    ]);
    const snoozed = (await eventsFor(t.workspaceId, 'inbox.conversation.snoozed', c._id))[0]!;
    expect(snoozed.changes!.snoozedUntil).toEqual([null, until]);
  });

  it('refuses transitions the machine does not allow with 409 CONFLICT naming the allowed ones', async () => {
    const t = await tenant();
    const c = await t.open();
    const same = await transition(t, c._id, { status: 'open' });
    expectError(same, 409, 'CONFLICT');
    expect(same.body.error.details).toMatchObject({ status: 'open', requested: 'open' });
    await transition(t, c._id, { status: 'closed' });
    for (const status of ['pending', 'closed']) {
      const res = await transition(t, c._id, { status });
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.details.allowed).toEqual(['open']);
    }
    const snooze = await transition(t, c._id, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 60_000).toISOString() });
    expectError(snooze, 409, 'CONFLICT');
    expect(await eventsFor(t.workspaceId, 'inbox.conversation.closed', c._id)).toHaveLength(1);
  });

  it('validates snoozedUntil: required and in the future for snoozed, refused for other statuses', async () => {
    const t = await tenant();
    const c = await t.open();
    const cases: [Record<string, unknown>, number][] = [
      [{ status: 'snoozed' }, 422],
      [{ status: 'snoozed', snoozedUntil: new Date(Date.now() - 1000).toISOString() }, 422],
      [{ status: 'snoozed', snoozedUntil: 'tomorrow' }, 422],
      [{ status: 'closed', snoozedUntil: new Date(Date.now() + 60_000).toISOString() }, 422],
      [{ status: 'archived' }, 422],
    ];
    for (const [body, status] of cases) {
      const res = await transition(t, c._id, body);
      expectError(res, status, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors[0].path).toMatch(/^(snoozedUntil|status)$/);
    }
    expect((await t.api.get(`${CONV}/${c._id}`)).body.data.conversation.status).toBe('open');
  });

  it('the timer reopens a snoozed conversation once its time has come, and not before', async () => {
    const t = await tenant();
    const soon = await t.open();
    const later = await t.open();
    // Far enough ahead that a loaded machine still runs the first sweep before it is due.
    await transition(t, soon._id, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 4000).toISOString() });
    await transition(t, later._id, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 3_600_000).toISOString() });
    await wakeSnoozed();
    expect((await t.api.get(`${CONV}/${soon._id}`)).body.data.conversation.status).toBe('snoozed');
    await new Promise((r) => setTimeout(r, 4100));
    await wakeSnoozed();
    const woken = (await t.api.get(`${CONV}/${soon._id}`)).body.data.conversation;
    expect(woken).toMatchObject({ status: 'open', snoozedUntil: null });
    expect((await t.api.get(`${CONV}/${later._id}`)).body.data.conversation.status).toBe('snoozed');
    const reopened = await eventsFor(t.workspaceId, 'inbox.conversation.reopened', soon._id);
    expect(reopened).toHaveLength(1);
    expect(reopened[0]!.changes!.status).toEqual(['snoozed', 'open']);
    // The timer index gave back the tenant in its mode (these tenants are test mode), not a bare workspace.
    expect(reopened[0]!.livemode).toBe(false);
    await wakeSnoozed();
    expect(await eventsFor(t.workspaceId, 'inbox.conversation.reopened', soon._id)).toHaveLength(1);
  });
});

describe('assignment and edits', () => {
  it('assigns, reassigns and unassigns with one event each; no-op requests are 409', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const OTHER_AGENT = await agentId(t.api);
    const c = await t.open();
    const assign = (assigneeId: string) => t.api.post(`${CONV}/${c._id}/assign`, { assigneeId });
    expect((await assign(AGENT)).body.data.conversation.assigneeId).toBe(AGENT);
    expectError(await assign(AGENT), 409, 'CONFLICT');
    expect((await assign(OTHER_AGENT)).body.data.conversation.assigneeId).toBe(OTHER_AGENT);
    expect((await t.api.post(`${CONV}/${c._id}/unassign`)).body.data.conversation.assigneeId).toBeNull();
    expectError(await t.api.post(`${CONV}/${c._id}/unassign`), 409, 'CONFLICT');
    const assigned = await eventsFor(t.workspaceId, 'inbox.conversation.assigned', c._id);
    expect(assigned.map((e) => e.changes!.assigneeId)).toEqual([
      [null, AGENT],
      [AGENT, OTHER_AGENT],
    ]);
    const unassigned = await eventsFor(t.workspaceId, 'inbox.conversation.unassigned', c._id);
    expect(unassigned.map((e) => e.changes!.assigneeId)).toEqual([[OTHER_AGENT, null]]);
    const bad = await t.api.post(`${CONV}/${c._id}/assign`, { assigneeId: 'bob' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors[0].path).toBe('assigneeId');
  });

  it('a priority change emits priority_changed, a subject change updated, and an unchanged PATCH nothing', async () => {
    const t = await tenant();
    const c = await t.open();
    const p = await t.api.patch(`${CONV}/${c._id}`, { priority: 'urgent' });
    expect(p.body.data.conversation.priority).toBe('urgent');
    await t.api.patch(`${CONV}/${c._id}`, { subject: 'Billing' });
    await t.api.patch(`${CONV}/${c._id}`, { subject: 'Billing' });
    const priority = await eventsFor(t.workspaceId, 'inbox.conversation.priority_changed', c._id);
    const updated = await eventsFor(t.workspaceId, 'inbox.conversation.updated', c._id);
    expect(priority.map((e) => e.changes)).toEqual([{ priority: ['none', 'urgent'] }]);
    expect(updated.map((e) => e.changes)).toEqual([{ subject: [null, 'Billing'] }]);
    const bad = await t.api.patch(`${CONV}/${c._id}`, { priority: 'meh', status: 'closed' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual(['priority', 'status']);
  });
});

describe('listing', () => {
  it('filters by status, assignee, assignee with status, channel and customer, with exact totals', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const other = (await t.api.post('/api/v1/contacts/customers', { name: 'Grace' })).body.data.customer;
    const a = await t.open({ channel: 'email' });
    const b = await t.open({ channel: 'sms', assigneeId: AGENT });
    const c = await t.open({ customerId: other._id, assigneeId: AGENT });
    await t.api.post(`${CONV}/${b._id}/status`, { status: 'closed' });
    const ids = async (query: string) => {
      const res = await t.api.get(`${CONV}?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.conversations.map((x: { _id: string }) => x._id), total: res.body.data.pagination.total };
    };
    expect(await ids('')).toEqual({ ids: [c._id, b._id, a._id], total: 3 });
    expect(await ids('status=open')).toEqual({ ids: [c._id, a._id], total: 2 });
    expect(await ids('status=closed')).toEqual({ ids: [b._id], total: 1 });
    expect(await ids(`assigneeId=${AGENT}`)).toEqual({ ids: [c._id, b._id], total: 2 });
    expect(await ids('assigneeId=none')).toEqual({ ids: [a._id], total: 1 });
    expect(await ids(`assigneeId=${AGENT}&status=open`)).toEqual({ ids: [c._id], total: 1 });
    expect(await ids('channel=email')).toEqual({ ids: [a._id], total: 1 });
    expect(await ids(`customerId=${other._id}`)).toEqual({ ids: [c._id], total: 1 });
    const combo = await t.api.get(`${CONV}?status=open&channel=email`);
    expectError(combo, 422, 'VALIDATION_ERROR');
    expect(combo.body.error.details.errors[0].path).toBe('channel');
    const bad = await t.api.get(`${CONV}?status=gone&limit=500`);
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual(['limit', 'status']);
  });

  it('keeps status and channel lists as index entries, and reads and moves over those stored before as membership items', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const old = await t.open({ assigneeId: AGENT, channel: 'email' });
    const fresh = await t.open({ assigneeId: AGENT, channel: 'email' });
    const lists = ['status:open', `assignee:${AGENT}:status:open`, 'channel:email'];
    const members = async (list: string) =>
      (await queryPage({ pk: listPartition(t.tenant, list) }, { limit: 10 })).items.map((i) => i.conversationId);
    // A new conversation writes no membership item in its status and channel lists: its own entries in gsi3 and
    // gsi4, and its customer membership item's in gsi3, are them.
    for (const list of lists) expect(await members(list), list).toEqual([]);
    // As stored before: no index entries, a membership item in each of these lists.
    const strip = (key: { pk: string; sk: string }, attributes: string) =>
      dynamo().send(new UpdateCommand({ TableName: config().TABLE_NAME, Key: key, UpdateExpression: `REMOVE ${attributes}` }));
    await strip(conversationKey(t.tenant, old._id), 'gsi3pk, gsi3sk, gsi4pk, gsi4sk, channelEntry');
    const membership = (list: string) => conversationList.key({ tenant: t.tenant, list, createdAt: old.createdAt, id: old._id });
    await strip(membership(`customer:${t.customer._id}`), 'gsi3pk, gsi3sk');
    for (const list of lists)
      await dynamo().send(
        new PutCommand({
          TableName: config().TABLE_NAME,
          Item: { ...membership(list), type: 'CONV_LIST', conversationId: old._id },
        }),
      );
    const page = async (query: string) => {
      const res = await t.api.get(`${CONV}?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const ids = async (query: string) => {
      const data = await page(query);
      return { ids: data.conversations.map((x: { _id: string }) => x._id), total: data.pagination.total };
    };
    for (const query of ['', 'status=open', `assigneeId=${AGENT}`, `assigneeId=${AGENT}&status=open`, 'channel=email'])
      expect(await ids(query), query).toEqual({ ids: [fresh._id, old._id], total: 2 });
    const first = await page('status=open&limit=1');
    expect(first.conversations.map((x: { _id: string }) => x._id)).toEqual([fresh._id]);
    expect((await ids(`status=open&limit=1&cursor=${first.pagination.nextCursor}`)).ids).toEqual([old._id]);
    expect((await ids('status=open&limit=1&page=2')).ids).toEqual([old._id]);
    // A reply leaves its lists as they are; a status change moves it to its index entries and deletes its items.
    expect((await t.api.post(`${CONV}/${old._id}/messages`, { content: 'On it' })).status).toBe(201);
    for (const list of lists) expect(await members(list), list).toEqual([old._id]);
    expect((await t.api.post(`${CONV}/${old._id}/status`, { status: 'pending' })).status).toBe(200);
    expect(await members('status:open')).toEqual([]);
    expect(await members(`assignee:${AGENT}:status:open`)).toEqual([]);
    expect(await members('channel:email')).toEqual([old._id]);
    expect(await ids('status=open')).toEqual({ ids: [fresh._id], total: 1 });
    expect(await ids('status=pending')).toEqual({ ids: [old._id], total: 1 });
    expect(await ids(`assigneeId=${AGENT}&status=pending`)).toEqual({ ids: [old._id], total: 1 });
    expect(await ids(`assigneeId=${AGENT}`)).toEqual({ ids: [fresh._id, old._id], total: 2 });
    expect((await t.api.delete(`${CONV}/${old._id}`)).status).toBe(200);
    for (const list of [...lists, 'status:pending', `customer:${t.customer._id}`])
      expect(await members(list), list).toEqual(list.startsWith('customer:') ? [fresh._id] : []);
    expect(await ids('channel=email')).toEqual({ ids: [fresh._id], total: 1 });
  });

  it('pages by page number and by cursor alike, newest first, with the contract pagination', async () => {
    const t = await tenant();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await t.open())._id);
    const newest = [...created].reverse();
    const page2 = await t.api.get(`${CONV}?page=2&limit=3`);
    expect(page2.body.data.conversations.map((x: { _id: string }) => x._id)).toEqual(newest.slice(3, 6));
    expect(page2.body.data.pagination).toMatchObject({ total: 7, page: 2, limit: 3, pages: 3, hasMore: true });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.api.get(`${CONV}?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.data.conversations.map((x: { _id: string }) => x._id));
      cursor = res.body.data.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newest);
    const other = await tenant();
    const theirs = await other.api.get(`${CONV}?limit=1`);
    expect(theirs.body.data.pagination.total).toBe(0);
    const tampered = await other.api.get(`${CONV}?cursor=${page2.body.data.pagination.nextCursor}`);
    expectError(tampered, 422, 'VALIDATION_ERROR');
  });

  it('keeps totals exact under concurrent creates and deletes', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const initial = await Promise.all(Array.from({ length: 10 }, () => t.open()));
    await Promise.all([
      ...Array.from({ length: 15 }, () => t.open({ assigneeId: AGENT })),
      ...initial.slice(0, 6).map((c) => t.api.delete(`${CONV}/${c._id}`).then((r) => expect(r.status).toBe(200))),
    ]);
    const total = async (q: string) => (await t.api.get(`${CONV}?${q}`)).body.data.pagination.total;
    expect(await total('')).toBe(19);
    expect(await total('status=open')).toBe(19);
    expect(await total(`assigneeId=${AGENT}`)).toBe(15);
    expect(await total('assigneeId=none')).toBe(4);
    expect(await total(`customerId=${t.customer._id}`)).toBe(19);
    const numbers = (await t.api.get(`${CONV}?limit=100`)).body.data.conversations.map((c: { number: number }) => c.number);
    expect(new Set(numbers).size).toBe(19);
  });
});

describe('tags on conversations', () => {
  it('filters by tag with the per-tag total, and deleting a tagged conversation drops its tag link and count', async () => {
    const t = await tenant();
    const tag = (await t.api.post('/api/v1/tags', { name: 'urgent' })).body.data.tag;
    const [a, b] = [await t.open(), await t.open()];
    await t.open();
    for (const c of [a, b]) expect((await t.api.post(`${CONV}/${c._id}/tags`, { tagIds: [tag._id] })).status).toBeLessThan(300);
    const tagged = await t.api.get(`${CONV}?tagId=${tag._id}`);
    expect(tagged.body.data.conversations.map((c: { _id: string }) => c._id).sort()).toEqual([a._id, b._id].sort());
    expect(tagged.body.data.conversations[0].tagIds).toEqual([tag._id]);
    expect(tagged.body.data.pagination.total).toBe(2);
    expect((await t.api.delete(`${CONV}/${a._id}`)).status).toBe(200);
    const after = await t.api.get(`${CONV}?tagId=${tag._id}`);
    expect(after.body.data.conversations.map((c: { _id: string }) => c._id)).toEqual([b._id]);
    expect(after.body.data.pagination.total).toBe(1);
  });
});

describe('deleting', () => {
  it('deletes a conversation once, with its event, and leaves it out of lists', async () => {
    const t = await tenant();
    const c = await t.open();
    const res = await t.api.delete(`${CONV}/${c._id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ deleted: true, conversation: { _id: c._id } });
    expectError(await t.api.get(`${CONV}/${c._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`${CONV}/${c._id}`), 404, 'NOT_FOUND');
    expect((await t.api.get(CONV)).body.data.pagination.total).toBe(0);
    expect(await eventsFor(t.workspaceId, 'inbox.conversation.deleted', c._id)).toHaveLength(1);
  });

  it('leaves nothing of a deleted conversation in the table: its messages and notes go after it', async () => {
    const t = await tenant();
    const c = await t.open();
    for (const body of [{ content: 'Where is my order?' }, { content: 'Checking', type: 'note' }])
      expect((await t.api.post(`${CONV}/${c._id}/messages`, body)).status).toBe(201);
    const { pk } = conversationKey(t.tenant, c._id);
    const partition = async () => (await queryPage({ pk, consistent: true }, { limit: 100 })).items.map((i) => i.type);
    expect(await partition()).toEqual(expect.arrayContaining(['CONVERSATION', 'MESSAGE']));
    expect((await t.api.delete(`${CONV}/${c._id}`)).status).toBe(200);
    for (let waited = 0; (await partition()).length > 0 && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(await partition()).toEqual([]);
  });
});
