import { describe, expect, it } from 'vitest';
import { outboxEvents } from '../support/outbox';
import { tokenFor } from '../support/tenants';
import { ENTITY_PATHS, newEntity, newTag, errorPaths, tagsStack } from '../support/tags-fixtures';
import { expectError } from '../support/api';

const { tenant } = tagsStack();

const ids = (tags: { _id: string }[]) => tags.map((t) => t._id);

const EVENTS = {
  conversation: { tagged: 'inbox.conversation.tagged', untagged: 'inbox.conversation.untagged', key: 'conversation' },
  customer: { tagged: 'customer.contact.tagged', untagged: 'customer.contact.untagged', key: 'contact' },
} as const;

describe.each(['conversation', 'customer'] as const)('tagging one %s', (type) => {
  const base = ENTITY_PATHS[type];
  const events = EVENTS[type];

  it('attaches tags, lists them by name and emits one tagged event with changes', async () => {
    const { api, workspaceId } = await tenant();
    const [zulu, alpha] = [await newTag(api, 'zulu'), await newTag(api, 'alpha')];
    const entity = await newEntity(type, workspaceId);
    const res = await api.post(`${base}/${entity}/tags`, { tagIds: [zulu, alpha] });
    expect(res.status).toBe(200);
    expect(res.body.data.changed).toBe(true);
    expect(res.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['alpha', 'zulu']);
    const listed = await api.get(`${base}/${entity}/tags`);
    expect(ids(listed.body.data.tags)).toEqual([alpha, zulu]);
    expect(listed.body.data.pagination.total).toBe(2);

    const tagged = await outboxEvents(workspaceId, events.tagged);
    expect(tagged).toHaveLength(1);
    expect(tagged[0]!.changes).toEqual({ tagIds: [[], [zulu, alpha].sort()] });
    expect(tagged[0]!.data[events.key]).toMatchObject({ _id: entity, tagIds: [zulu, alpha].sort() });
    expect(ids(tagged[0]!.data.tags as { _id: string }[]).sort()).toEqual([zulu, alpha].sort());
  });

  it('pages an empty tag list by the same rule as GET /tags: no pages, a page size of at least one', async () => {
    const { api, workspaceId } = await tenant();
    const entity = await newEntity(type, workspaceId);
    const empty = (await api.get(`${base}/${entity}/tags`)).body.data.pagination;
    const tags = (await api.get('/api/v1/tags')).body.data.pagination;
    for (const p of [empty, tags]) {
      expect(p).toMatchObject({ total: 0, page: 1, pages: 0, hasMore: false, nextCursor: null });
      expect(p.limit).toBeGreaterThanOrEqual(1);
    }
    await api.post(`${base}/${entity}/tags`, { tagIds: [await newTag(api)] });
    expect((await api.get(`${base}/${entity}/tags`)).body.data.pagination).toMatchObject({ total: 1, pages: 1 });
  });

  it('is idempotent: attaching a tag again changes nothing and emits no event', async () => {
    const { api, workspaceId } = await tenant();
    const tag = await newTag(api);
    const entity = await newEntity(type, workspaceId);
    await api.post(`${base}/${entity}/tags`, { tagIds: [tag] });
    const again = await api.post(`${base}/${entity}/tags`, { tagIds: [tag, tag] });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ changed: false, tags: [{ _id: tag }] });
    expect(await outboxEvents(workspaceId, events.tagged)).toHaveLength(1);
    expect((await api.get(`/api/v1/tags/${tag}`)).body.data.tag.counts[type]).toBe(1);
  });

  it('adds only the missing tags and reports before and after in changes', async () => {
    const { api, workspaceId } = await tenant();
    const [a, b] = [await newTag(api), await newTag(api)];
    const entity = await newEntity(type, workspaceId);
    await api.post(`${base}/${entity}/tags`, { tagIds: [a] });
    await api.post(`${base}/${entity}/tags`, { tagIds: [a, b] });
    // Event ids order by second only, so two events of one second come back in either order.
    const tagged = (await outboxEvents(workspaceId, events.tagged)).sort((x, y) => x.occurredAt.localeCompare(y.occurredAt));
    expect(tagged.map((e) => e.changes)).toEqual([{ tagIds: [[], [a]] }, { tagIds: [[a], [a, b].sort()] }]);
    expect(ids(tagged[1]!.data.tags as { _id: string }[])).toEqual([b]);
  });

  it('detaches a tag with one untagged event, and detaching it again is a 404', async () => {
    const { api, workspaceId } = await tenant();
    const [a, b] = [await newTag(api), await newTag(api)];
    const entity = await newEntity(type, workspaceId);
    await api.post(`${base}/${entity}/tags`, { tagIds: [a, b] });
    const res = await api.delete(`${base}/${entity}/tags/${a}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ tag: expect.objectContaining({ _id: a }), deleted: true });
    expect(ids((await api.get(`${base}/${entity}/tags`)).body.data.tags)).toEqual([b]);
    expectError(await api.delete(`${base}/${entity}/tags/${a}`), 404, 'NOT_FOUND');
    const untagged = await outboxEvents(workspaceId, events.untagged);
    expect(untagged).toHaveLength(1);
    expect(untagged[0]!.changes).toEqual({ tagIds: [[a, b].sort(), [b]] });
    expect((await api.get(`/api/v1/tags/${a}`)).body.data.tag.counts[type]).toBe(0);
  });

  it('answers 404 for an unknown, malformed or other-workspace entity, never touching it', async () => {
    const [mine, theirs] = await Promise.all([tenant(), tenant()]);
    const tag = await newTag(mine.api);
    const foreign = await newEntity(type, theirs.workspaceId);
    expectError(await mine.api.post(`${base}/${foreign}/tags`, { tagIds: [tag] }), 404, 'NOT_FOUND');
    expectError(await mine.api.post(`${base}/0123456789abcdef01234567/tags`, { tagIds: [tag] }), 404, 'NOT_FOUND');
    expectError(await mine.api.post(`${base}/nope/tags`, { tagIds: [tag] }), 404, 'NOT_FOUND');
    expectError(await mine.api.get(`${base}/${foreign}/tags`), 404, 'NOT_FOUND');
    expectError(await mine.api.delete(`${base}/${foreign}/tags/${tag}`), 404, 'NOT_FOUND');
    expect((await theirs.api.get(`${base}/${foreign}/tags`)).body.data.tags).toEqual([]);
    expect(await outboxEvents(theirs.workspaceId, events.tagged)).toEqual([]);
  });

  it('refuses unknown and other-workspace tags with 422 naming each tagIds[i]', async () => {
    const [mine, theirs] = await Promise.all([tenant(), tenant()]);
    const [good, foreign] = [await newTag(mine.api), await newTag(theirs.api)];
    const entity = await newEntity(type, mine.workspaceId);
    const res = await mine.api.post(`${base}/${entity}/tags`, { tagIds: [good, foreign, '0123456789abcdef01234567', 'bad'] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(errorPaths(res)).toEqual(['tagIds[1]', 'tagIds[2]', 'tagIds[3]']);
    expect((await mine.api.get(`${base}/${entity}/tags`)).body.data.tags).toEqual([]);
    expectError(await mine.api.delete(`${base}/${entity}/tags/${foreign}`), 404, 'NOT_FOUND');
  });

  it('refuses an empty list, more than 10 tags and unknown fields with 422', async () => {
    const { api, workspaceId } = await tenant();
    const entity = await newEntity(type, workspaceId);
    const path = `${base}/${entity}/tags`;
    expect((await api.post(path, { tagIds: [] })).body.error.details.errors).toEqual([{ path: 'tagIds', message: expect.any(String) }]);
    const eleven = Array.from({ length: 11 }, (_, i) => `0123456789abcdef012345${String(i).padStart(2, '0')}`);
    expect((await api.post(path, { tagIds: eleven })).status).toBe(422);
    expect((await api.post(path, { tagIds: ['0123456789abcdef01234567'], color: 'x' })).body.error.details.errors[0].path).toBe('color');
    expectError(await api.post(path, {}), 400, 'BAD_REQUEST');
  });

  it('needs tags:write to attach or detach and tags:read to list', async () => {
    const owner = await tenant();
    const tag = await newTag(owner.api);
    const entity = await newEntity(type, owner.workspaceId);
    const reader = owner.api.as({
      token: (await tokenFor([owner.workspaceId], ['tags:read', 'inbox:write', 'contacts:write'])).token,
      workspaceId: owner.workspaceId,
    });
    expectError(await reader.post(`${base}/${entity}/tags`, { tagIds: [tag] }), 403, 'FORBIDDEN');
    expectError(await reader.delete(`${base}/${entity}/tags/${tag}`), 403, 'FORBIDDEN');
    expect((await reader.get(`${base}/${entity}/tags`)).status).toBe(200);
    const writer = owner.api.as({ token: (await tokenFor([owner.workspaceId], ['tags:write'])).token, workspaceId: owner.workspaceId });
    expectError(await writer.get(`${base}/${entity}/tags`), 403, 'FORBIDDEN');
    expect((await writer.post(`${base}/${entity}/tags`, { tagIds: [tag] })).status).toBe(200);
  });

  it('counts each attachment once when the same tag is attached concurrently', async () => {
    const { api, workspaceId } = await tenant();
    const tag = await newTag(api);
    const entity = await newEntity(type, workspaceId);
    const results = await Promise.all(Array.from({ length: 6 }, () => api.post(`${base}/${entity}/tags`, { tagIds: [tag] })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.data.changed)).toHaveLength(1);
    expect(await outboxEvents(workspaceId, events.tagged)).toHaveLength(1);
    expect((await api.get(`/api/v1/tags/${tag}`)).body.data.tag.counts[type]).toBe(1);
  });
});

describe('tags on deleted tags', () => {
  it('refuses to attach a deleted tag with 422', async () => {
    const { api, workspaceId } = await tenant();
    const tag = await newTag(api);
    await api.delete(`/api/v1/tags/${tag}`);
    const entity = await newEntity('conversation', workspaceId);
    const res = await api.post(`${ENTITY_PATHS.conversation}/${entity}/tags`, { tagIds: [tag] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors[0].path).toBe('tagIds[0]');
  });
});

describe('tags and entity deletion', () => {
  it('deleting a tagged customer drops it from the tag counts and from the later deletion sweep of the tag', async () => {
    const { api, workspaceId } = await tenant();
    const tag = await newTag(api);
    const [kept, removed] = [await newEntity('customer', workspaceId), await newEntity('customer', workspaceId)];
    await api.post('/api/v1/tags/bulk', { entityType: 'customer', entityIds: [kept, removed], tagIds: [tag] });
    expect((await api.delete(`${ENTITY_PATHS.customer}/${removed}`)).status).toBe(200);
    expect((await api.get(`/api/v1/tags/${tag}`)).body.data.tag.counts.customer).toBe(1);
    const res = await api.delete(`/api/v1/tags/${tag}`);
    expect(res.body.data.tag.detached).toEqual({ conversation: 0, customer: 1, lead: 0 });
    expect(await outboxEvents(workspaceId, 'customer.contact.untagged')).toHaveLength(1);
  });
});
