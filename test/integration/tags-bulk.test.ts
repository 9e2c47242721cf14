import { describe, expect, it } from 'vitest';
import type { Client } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { tokenFor } from '../support/tenants';
import { inFreshRateWindow } from '../support/rate-window';
import { ENTITY_PATHS, newConversation, newCustomer, newTag, errorPaths, tagsStack } from '../support/tags-fixtures';
import { expectError } from '../support/api';

const { tenant } = tagsStack();

/** Fixtures in waves of 10: 100 concurrent creates contend on the one workspace counter and can exhaust its conflict retries (a 500). */
const many = async <T>(n: number, make: () => Promise<T>): Promise<T[]> => {
  const made: T[] = [];
  for (let i = 0; i < n; i += 10) made.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, make))));
  return made;
};
const tagIdsOn = async (api: Client, path: string) =>
  ((await api.get(`${path}/tags`)).body.data.tags as { _id: string }[]).map((t) => t._id).sort();

describe('POST /api/v1/tags/bulk', () => {
  it('applies every tag to every conversation, one tagged event per conversation', async () => {
    const { api, workspaceId } = await tenant();
    const tags = [await newTag(api), await newTag(api)];
    const conversations = await many(3, () => newConversation(workspaceId));
    const res = await api.post('/api/v1/tags/bulk', { entityType: 'conversation', entityIds: conversations, tagIds: tags });
    expect(res.status).toBe(200);
    expect(res.body.data.bulk).toEqual({ action: 'tag', entityType: 'conversation', tagIds: tags, changed: conversations, unchanged: [] });
    for (const id of conversations) expect(await tagIdsOn(api, `${ENTITY_PATHS.conversation}/${id}`)).toEqual([...tags].sort());
    const events = await outboxEvents(workspaceId, 'inbox.conversation.tagged');
    expect(events.map((e) => (e.data.conversation as { _id: string })._id).sort()).toEqual([...conversations].sort());
    for (const e of events) expect(e.changes).toEqual({ tagIds: [[], [...tags].sort()] });
    expect((await api.get(`/api/v1/tags/${tags[0]}`)).body.data.tag.counts).toEqual({ conversation: 3, customer: 0, lead: 0 });
  });

  it('is idempotent: the same call again changes nothing and emits no event', async () => {
    const { api, workspaceId } = await tenant();
    const tags = [await newTag(api)];
    const customers = await many(3, () => newCustomer(workspaceId));
    const body = { entityType: 'customer', entityIds: customers, tagIds: tags };
    await api.post('/api/v1/tags/bulk', body);
    const again = await api.post('/api/v1/tags/bulk', body);
    expect(again.status).toBe(200);
    expect(again.body.data.bulk).toMatchObject({ changed: [], unchanged: customers });
    expect(await outboxEvents(workspaceId, 'customer.contact.tagged')).toHaveLength(3);
    expect((await api.get(`/api/v1/tags/${tags[0]}`)).body.data.tag.counts.customer).toBe(3);
  });

  it('finishes an interrupted call: entities already done are left alone, the rest are completed', async () => {
    const { api, workspaceId } = await tenant();
    const [a, b] = [await newTag(api), await newTag(api)];
    const conversations = await many(3, () => newConversation(workspaceId));
    // State a crash could leave: the first conversation fully done, the second half-requested earlier.
    await api.post(`${ENTITY_PATHS.conversation}/${conversations[0]}/tags`, { tagIds: [a, b] });
    await api.post(`${ENTITY_PATHS.conversation}/${conversations[1]}/tags`, { tagIds: [a] });
    const res = await api.post('/api/v1/tags/bulk', { entityType: 'conversation', entityIds: conversations, tagIds: [a, b] });
    expect(res.body.data.bulk).toMatchObject({ changed: conversations.slice(1), unchanged: [conversations[0]] });
    const events = await outboxEvents(workspaceId, 'inbox.conversation.tagged');
    expect(events).toHaveLength(4);
    const second = events.filter((e) => (e.data.conversation as { _id: string })._id === conversations[1]);
    expect(second.sort((x, y) => x.occurredAt.localeCompare(y.occurredAt)).map((e) => e.changes)).toEqual([
      { tagIds: [[], [a]] },
      { tagIds: [[a], [a, b].sort()] },
    ]);
    expect((await api.get(`/api/v1/tags/${b}`)).body.data.tag.counts.conversation).toBe(3);
  });

  // Its fixtures alone are 110 creates and its calls about 230 transactions: minutes, not one, on 2 busy cores.
  it('accepts the stated maxima of 100 entities and 10 tags per call, and treats repeated ids once', { timeout: 240_000 }, async () => {
    const { api, workspaceId } = await tenant();
    const tags = [];
    for (let i = 0; i < 10; i++) tags.push(await newTag(api));
    const customers = await many(100, () => newCustomer(workspaceId));
    const wide = await api.post('/api/v1/tags/bulk', { entityType: 'customer', entityIds: customers, tagIds: [tags[0]] });
    expect(wide.status).toBe(200);
    expect(wide.body.data.bulk.changed).toHaveLength(100);
    const deep = await api.post('/api/v1/tags/bulk', { entityType: 'customer', entityIds: customers.slice(0, 3), tagIds: tags });
    expect(deep.body.data.bulk.changed).toHaveLength(3);
    expect(await outboxEvents(workspaceId, 'customer.contact.tagged')).toHaveLength(103);
    expect((await api.get(`/api/v1/tags/${tags[0]}`)).body.data.tag.counts.customer).toBe(100);
    expect((await api.get(`/api/v1/tags/${tags[9]}`)).body.data.tag.counts.customer).toBe(3);
    const dup = await api.post('/api/v1/tags/bulk', {
      entityType: 'customer',
      entityIds: [customers[0], customers[0]],
      tagIds: [tags[0], tags[0]],
    });
    expect(dup.body.data.bulk).toMatchObject({ changed: [], unchanged: [customers[0]], tagIds: [tags[0]] });
  });

  it('validates all-or-nothing: every unknown, foreign or malformed id is named by index and nothing is tagged', async () => {
    const [mine, theirs] = await Promise.all([tenant(), tenant()]);
    const [good, foreignTag] = [await newTag(mine.api), await newTag(theirs.api)];
    const [known, foreignConversation] = [await newConversation(mine.workspaceId), await newConversation(theirs.workspaceId)];
    const res = await mine.api.post('/api/v1/tags/bulk', {
      entityType: 'conversation',
      entityIds: [known, foreignConversation, '0123456789abcdef01234567', 'not-an-id'],
      tagIds: [good, foreignTag],
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(errorPaths(res)).toEqual(['entityIds[1]', 'entityIds[2]', 'entityIds[3]', 'tagIds[1]']);
    const messages = JSON.stringify(res.body.error.details.errors);
    expect(messages).not.toMatch(/another workspace|exists/i);
    expect(await tagIdsOn(mine.api, `${ENTITY_PATHS.conversation}/${known}`)).toEqual([]);
    expect(await outboxEvents(mine.workspaceId, 'inbox.conversation.tagged')).toEqual([]);
    expect(await outboxEvents(theirs.workspaceId, 'inbox.conversation.tagged')).toEqual([]);
  });

  it('names an unknown lead by its index like any unknown entity', async () => {
    const { api } = await tenant();
    const tag = await newTag(api);
    const res = await api.post('/api/v1/tags/bulk', { entityType: 'lead', entityIds: ['0123456789abcdef01234567'], tagIds: [tag] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(errorPaths(res)).toEqual(['entityIds[0]']);
  });

  it('refuses wrong shapes with per-field 422s and a missing field with 400', async () => {
    const { api } = await tenant();
    const id = '0123456789abcdef01234567';
    const tooMany = Array.from({ length: 101 }, () => id);
    const shape = await api.post('/api/v1/tags/bulk', { entityType: 'deal', entityIds: tooMany, tagIds: Array(11).fill(id), extra: 1 });
    expectError(shape, 422, 'VALIDATION_ERROR');
    expect(errorPaths(shape)).toEqual(['entityIds', 'entityType', 'extra', 'tagIds']);
    expect(errorPaths(await api.post('/api/v1/tags/bulk', { entityType: 'customer', entityIds: [], tagIds: [5] }))).toEqual([
      'entityIds',
      'tagIds[0]',
    ]);
    expectError(await api.post('/api/v1/tags/bulk', { entityType: 'customer', tagIds: [id] }), 400, 'BAD_REQUEST');
    expectError(await api.post('/api/v1/tags/bulk', '{"entityType":'), 400, 'BAD_REQUEST');
  });

  it('needs tags:write (403 FORBIDDEN for tags:read)', async () => {
    const owner = await tenant();
    const { token } = await tokenFor([owner.workspaceId], ['tags:read', 'inbox:write']);
    const reader = owner.api.as({ token, workspaceId: owner.workspaceId });
    const body = { entityType: 'conversation', entityIds: ['0123456789abcdef01234567'], tagIds: ['0123456789abcdef01234567'] };
    expectError(await reader.post('/api/v1/tags/bulk', body), 403, 'FORBIDDEN');
    expectError(await reader.post('/api/v1/tags/bulk/remove', body), 403, 'FORBIDDEN');
  });
});

describe('POST /api/v1/tags/bulk/remove', () => {
  it('removes the tags from every entity that carries them, one untagged event each, and is idempotent', async () => {
    const { api, workspaceId } = await tenant();
    const [a, b] = [await newTag(api), await newTag(api)];
    const conversations = await many(3, () => newConversation(workspaceId));
    await api.post('/api/v1/tags/bulk', { entityType: 'conversation', entityIds: conversations.slice(0, 2), tagIds: [a, b] });
    const body = { entityType: 'conversation', entityIds: conversations, tagIds: [a] };
    const res = await api.post('/api/v1/tags/bulk/remove', body);
    expect(res.status).toBe(200);
    expect(res.body.data.bulk).toEqual({
      action: 'untag',
      entityType: 'conversation',
      tagIds: [a],
      changed: conversations.slice(0, 2),
      unchanged: [conversations[2]],
    });
    const again = await api.post('/api/v1/tags/bulk/remove', body);
    expect(again.body.data.bulk.changed).toEqual([]);
    const events = await outboxEvents(workspaceId, 'inbox.conversation.untagged');
    expect(events).toHaveLength(2);
    for (const e of events) expect(e.changes).toEqual({ tagIds: [[a, b].sort(), [b]] });
    expect((await api.get(`/api/v1/tags/${a}`)).body.data.tag.counts.conversation).toBe(0);
    expect((await api.get(`/api/v1/tags/${b}`)).body.data.tag.counts.conversation).toBe(2);
  });
});

describe('bulk rate limit', () => {
  it('admits 10 bulk calls per 15-minute window and answers the 11th with 429 and Retry-After, leaving writes alone', async () => {
    inFreshRateWindow();
    const { api, workspaceId } = await tenant();
    const tag = await newTag(api);
    const customer = await newCustomer(workspaceId);
    const body = { entityType: 'customer', entityIds: [customer], tagIds: [tag] };
    for (let i = 0; i < 10; i++) {
      const path = i % 2 ? '/api/v1/tags/bulk/remove' : '/api/v1/tags/bulk';
      const res = await api.post(path, body);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
    }
    const limited = await api.post('/api/v1/tags/bulk', body);
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(limited.body.error.message).toContain(String(retryAfter));
    const write = await api.post('/api/v1/tags', { name: 'still allowed' });
    expect(write.status).toBe(201);
    expect(write.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
