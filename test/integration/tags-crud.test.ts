import { tenantPk } from '../../shared/data/keys';
import { describe, expect, it } from 'vitest';
import type { Client } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { tokenFor } from '../support/tenants';
import { finishStaleDeletions, hideTag } from '../../shared/tags/deletions';
import { ENTITY_PATHS, newConversation, newCustomer, newTag, errorPaths, tagsStack } from '../support/tags-fixtures';
import { expectError } from '../support/api';
import { direct } from '../../shared/data/unit';

const { tenant } = tagsStack();

describe('creating tags', () => {
  it('creates a tag with name, color and description and returns it under data.tag', async () => {
    const { api } = await tenant();
    const res = await api.post('/api/v1/tags', { name: 'VIP', color: '#FF8800', description: 'Pays on time' });
    expect(res.status).toBe(201);
    expect(res.body.data.tag).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'VIP',
      color: '#ff8800',
      description: 'Pays on time',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('gives a tag without color a default color and a null description', async () => {
    const { api } = await tenant();
    const res = await api.post('/api/v1/tags', { name: '  billing  ' });
    expect(res.body.data.tag).toMatchObject({ name: 'billing', color: '#6b7280', description: null });
  });

  it('refuses a name already used in the workspace, whatever its case, with 409 CONFLICT', async () => {
    const { api } = await tenant();
    await newTag(api, 'Urgent');
    expectError(await api.post('/api/v1/tags', { name: 'urgent' }), 409, 'CONFLICT');
    expectError(await api.post('/api/v1/tags', { name: 'URGENT ' }), 409, 'CONFLICT');
  });

  it('lets two workspaces use the same name', async () => {
    const [a, b] = await Promise.all([tenant(), tenant()]);
    await newTag(a.api, 'Shared name');
    expect((await b.api.post('/api/v1/tags', { name: 'Shared name' })).status).toBe(201);
  });

  it('admits exactly one of many concurrent creates of the same name', async () => {
    const { api } = await tenant();
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/api/v1/tags', { name: 'Race' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect((await api.get('/api/v1/tags')).body.data.pagination.total).toBe(1);
  });

  it('reports every invalid field with its path in a 422', async () => {
    const { api } = await tenant();
    const res = await api.post('/api/v1/tags', { name: 'x'.repeat(51), color: 'red', description: 5, extra: true });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(errorPaths(res).sort()).toEqual(['color', 'description', 'extra', 'name']);
  });

  it('refuses an empty name with 422 and a missing name with 400', async () => {
    const { api } = await tenant();
    expect(errorPaths(await api.post('/api/v1/tags', { name: '   ' }))).toEqual(['name']);
    expectError(await api.post('/api/v1/tags', { color: '#000000' }), 400, 'BAD_REQUEST');
  });
});

describe('reading and listing tags', () => {
  it('lists tags by name with an exact total and page/limit pagination', async () => {
    const { api } = await tenant();
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'echo']) await newTag(api, name);
    const first = await api.get('/api/v1/tags?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'bravo']);
    expect(first.body.data.pagination).toMatchObject({ total: 5, page: 1, limit: 2, pages: 3, hasMore: true });
    const second = await api.get('/api/v1/tags?limit=2&page=2');
    expect(second.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['charlie', 'delta']);
    const last = await api.get(`/api/v1/tags?limit=2&cursor=${second.body.data.pagination.nextCursor}`);
    expect(last.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['echo']);
    expect(last.body.data.pagination).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('refuses a limit over 100 and a tampered cursor with 422', async () => {
    const { api } = await tenant();
    expect(errorPaths(await api.get('/api/v1/tags?limit=101'))).toEqual(['limit']);
    const other = await tenant();
    const otherWs = Buffer.from(JSON.stringify({ gsi1pk: tenantPk(other.tenant, 'TAGS'), gsi1sk: 'a', pk: 'x', sk: 'y' })).toString(
      'base64url',
    );
    expect(errorPaths(await api.get(`/api/v1/tags?cursor=${otherWs}`))).toEqual(['cursor']);
  });

  it('gets one tag with how many conversations and customers carry it', async () => {
    const { api, workspaceId } = await tenant();
    const tagId = await newTag(api, 'Counted');
    const [conversation, customer] = await Promise.all([newConversation(workspaceId), newCustomer(workspaceId)]);
    await api.post(`${ENTITY_PATHS.conversation}/${conversation}/tags`, { tagIds: [tagId] });
    await api.post(`${ENTITY_PATHS.customer}/${customer}/tags`, { tagIds: [tagId] });
    const res = await api.get(`/api/v1/tags/${tagId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.tag).toMatchObject({ _id: tagId, name: 'Counted', counts: { conversation: 1, customer: 1 } });
  });

  it("answers 404 for an unknown id, a malformed id and another workspace's tag", async () => {
    const [a, b] = await Promise.all([tenant(), tenant()]);
    const foreign = await newTag(b.api, 'Theirs');
    expectError(await a.api.get('/api/v1/tags/0123456789abcdef01234567'), 404, 'NOT_FOUND');
    expectError(await a.api.get('/api/v1/tags/not-an-id'), 404, 'NOT_FOUND');
    const res = await a.api.get(`/api/v1/tags/${foreign}`);
    expectError(res, 404, 'NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('Theirs');
    expectError(await a.api.patch(`/api/v1/tags/${foreign}`, { name: 'Mine now' }), 404, 'NOT_FOUND');
    expectError(await a.api.delete(`/api/v1/tags/${foreign}`), 404, 'NOT_FOUND');
    expect((await b.api.get(`/api/v1/tags/${foreign}`)).body.data.tag.name).toBe('Theirs');
    expect((await a.api.get('/api/v1/tags')).body.data).toMatchObject({ tags: [], pagination: { total: 0 } });
  });
});

describe('updating tags', () => {
  it('renames, recolors and clears the description, changing only what the body names', async () => {
    const { api } = await tenant();
    const created = (await api.post('/api/v1/tags', { name: 'Old', color: '#111111', description: 'd' })).body.data.tag;
    const res = await api.patch(`/api/v1/tags/${created._id}`, { name: 'New', description: null });
    expect(res.status).toBe(200);
    expect(res.body.data.tag).toMatchObject({
      _id: created._id,
      name: 'New',
      color: '#111111',
      description: null,
      createdAt: created.createdAt,
    });
    expect((await api.get(`/api/v1/tags/${created._id}`)).body.data.tag.name).toBe('New');
    expect((await api.get('/api/v1/tags')).body.data.tags.map((t: { name: string }) => t.name)).toEqual(['New']);
  });

  it('frees the old name on rename and refuses renaming onto a taken name with 409', async () => {
    const { api } = await tenant();
    const first = await newTag(api, 'First');
    await newTag(api, 'Second');
    expectError(await api.patch(`/api/v1/tags/${first}`, { name: 'second' }), 409, 'CONFLICT');
    expect((await api.patch(`/api/v1/tags/${first}`, { name: 'Renamed' })).status).toBe(200);
    expect((await api.post('/api/v1/tags', { name: 'first' })).status).toBe(201);
  });

  it('allows changing only the case of a name', async () => {
    const { api } = await tenant();
    const id = await newTag(api, 'support');
    const res = await api.patch(`/api/v1/tags/${id}`, { name: 'Support' });
    expect(res.body.data.tag.name).toBe('Support');
  });

  it('applies concurrent updates of one tag one after another, none lost to a race', async () => {
    const { api } = await tenant();
    const id = await newTag(api, 'busy');
    const colors = ['#000001', '#000002', '#000003', '#000004', '#000005'];
    const results = await Promise.all(colors.map((color) => api.patch(`/api/v1/tags/${id}`, { color })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(colors).toContain((await api.get(`/api/v1/tags/${id}`)).body.data.tag.color);
  });

  it('reports invalid fields of a PATCH with their paths', async () => {
    const { api } = await tenant();
    const id = await newTag(api);
    const res = await api.patch(`/api/v1/tags/${id}`, { color: '#12345', name: '' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(errorPaths(res).sort()).toEqual(['color', 'name']);
  });
});

describe('deleting tags', () => {
  it('deletes a tag: it is gone from get and list, its name is free again, a second delete is 404', async () => {
    const { api } = await tenant();
    const id = await newTag(api, 'Doomed');
    const res = await api.delete(`/api/v1/tags/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      deleted: true,
      tag: { _id: id, name: 'Doomed', complete: true, detached: { conversation: 0, customer: 0 } },
    });
    expectError(await api.get(`/api/v1/tags/${id}`), 404, 'NOT_FOUND');
    expect((await api.get('/api/v1/tags')).body.data.pagination.total).toBe(0);
    expectError(await api.delete(`/api/v1/tags/${id}`), 404, 'NOT_FOUND');
    expect((await api.post('/api/v1/tags', { name: 'doomed' })).status).toBe(201);
  });

  it('detaches a deleted tag from every entity with one untagged event each', async () => {
    const { api, workspaceId } = await tenant();
    const [doomed, kept] = [await newTag(api), await newTag(api)];
    const conversations = await Promise.all([newConversation(workspaceId), newConversation(workspaceId)]);
    const customer = await newCustomer(workspaceId);
    await api.post('/api/v1/tags/bulk', { entityType: 'conversation', entityIds: conversations, tagIds: [doomed, kept] });
    await api.post(`${ENTITY_PATHS.customer}/${customer}/tags`, { tagIds: [doomed] });

    const res = await api.delete(`/api/v1/tags/${doomed}`);
    expect(res.body.data.tag.detached).toEqual({ conversation: 2, customer: 1, lead: 0 });
    for (const id of conversations) {
      expect((await api.get(`${ENTITY_PATHS.conversation}/${id}/tags`)).body.data.tags.map((t: { _id: string }) => t._id)).toEqual([kept]);
    }
    expect((await api.get(`${ENTITY_PATHS.customer}/${customer}/tags`)).body.data.tags).toEqual([]);

    const untagged = await outboxEvents(workspaceId, 'inbox.conversation.untagged');
    expect(untagged.map((e) => (e.data.conversation as { _id: string })._id).sort()).toEqual([...conversations].sort());
    for (const e of untagged) expect(e.changes).toEqual({ tagIds: [[doomed, kept].sort(), [kept]] });
    const contactUntagged = await outboxEvents(workspaceId, 'customer.contact.untagged');
    expect(contactUntagged).toHaveLength(1);
    expect(contactUntagged[0]!.changes).toEqual({ tagIds: [[doomed], []] });
    expect((await api.get(`/api/v1/tags/${kept}`)).body.data.tag.counts).toEqual({ conversation: 2, customer: 0, lead: 0 });
  });

  it('counts a tag deleted by several concurrent requests once', async () => {
    const { api } = await tenant();
    const [id] = [await newTag(api), await newTag(api)];
    const results = await Promise.all(Array.from({ length: 4 }, () => api.delete(`/api/v1/tags/${id}`)));
    expect(results.some((r) => r.status === 200)).toBe(true);
    expect(results.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect((await api.get('/api/v1/tags')).body.data.pagination.total).toBe(1);
  });

  it('a deletion interrupted after hiding the tag is finished by the schedule, once', async () => {
    const { api, workspaceId, tenant: t } = await tenant();
    const tagId = await newTag(api, 'Interrupted');
    const customer = await newCustomer(workspaceId);
    await api.post(`${ENTITY_PATHS.customer}/${customer}/tags`, { tagIds: [tagId] });
    await hideTag(direct, t, tagId, new Date()); // what a crash right after the first step leaves
    expectError(await api.get(`/api/v1/tags/${tagId}`), 404, 'NOT_FOUND');
    expect((await api.get('/api/v1/tags')).body.data.pagination.total).toBe(0);
    const attach = await api.post(`${ENTITY_PATHS.customer}/${await newCustomer(workspaceId)}/tags`, { tagIds: [tagId] });
    expect(errorPaths(attach)).toEqual(['tagIds[0]']);

    const due = new Date(Date.now() + 1000);
    expect(await finishStaleDeletions(direct, due, new Date(), Date.now() + 30_000)).toBe(1);
    expect(await finishStaleDeletions(direct, due, new Date(), Date.now() + 30_000)).toBe(0);
    expect((await api.get(`${ENTITY_PATHS.customer}/${customer}/tags`)).body.data.tags).toEqual([]);
    // The schedule found the deletion in its tenant's mode (test), so its event is a test-mode one.
    expect((await outboxEvents(workspaceId, 'customer.contact.untagged')).map((e) => e.livemode)).toEqual([false]);
    expectError(await api.delete(`/api/v1/tags/${tagId}`), 404, 'NOT_FOUND');
  });

  it('a repeated DELETE finishes a deletion interrupted after hiding the tag', async () => {
    const { api, workspaceId, tenant: t } = await tenant();
    const tagId = await newTag(api);
    const conversation = await newConversation(workspaceId);
    await api.post(`${ENTITY_PATHS.conversation}/${conversation}/tags`, { tagIds: [tagId] });
    await hideTag(direct, t, tagId, new Date());
    const res = await api.delete(`/api/v1/tags/${tagId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ deleted: true, tag: { complete: true, detached: { conversation: 1, customer: 0 } } });
    expect((await api.get(`${ENTITY_PATHS.conversation}/${conversation}/tags`)).body.data.tags).toEqual([]);
  });

  it('keeps the total exact under concurrent creates and deletes', async () => {
    const { api } = await tenant();
    const existing = await Promise.all(Array.from({ length: 10 }, (_, i) => newTag(api, `existing-${i}`)));
    const [created, deleted] = await Promise.all([
      Promise.all(Array.from({ length: 15 }, (_, i) => api.post('/api/v1/tags', { name: `new-${i}` }))),
      Promise.all(existing.slice(0, 6).map((id) => api.delete(`/api/v1/tags/${id}`))),
    ]);
    expect(created.every((r) => r.status === 201)).toBe(true);
    expect(deleted.every((r) => r.status === 200)).toBe(true);
    const list = await api.get('/api/v1/tags?limit=100');
    expect(list.body.data.pagination.total).toBe(19);
    expect(list.body.data.tags).toHaveLength(19);
  });
});

describe('tag scopes', () => {
  it('lets tags:read list and get but not create, update or delete (403 FORBIDDEN)', async () => {
    const owner = await tenant();
    const id = await newTag(owner.api);
    const { token } = await tokenFor([owner.workspaceId], ['tags:read']);
    const reader: Client = owner.api.as({ token, workspaceId: owner.workspaceId });
    expect((await reader.get('/api/v1/tags')).status).toBe(200);
    expect((await reader.get(`/api/v1/tags/${id}`)).status).toBe(200);
    expectError(await reader.post('/api/v1/tags', { name: 'nope' }), 403, 'FORBIDDEN');
    expectError(await reader.patch(`/api/v1/tags/${id}`, { name: 'nope' }), 403, 'FORBIDDEN');
    expectError(await reader.delete(`/api/v1/tags/${id}`), 403, 'FORBIDDEN');
  });

  it('refuses listing to a token without tags:read', async () => {
    const owner = await tenant();
    const { token } = await tokenFor([owner.workspaceId], ['tags:write', 'inbox:read']);
    expectError(await owner.api.as({ token, workspaceId: owner.workspaceId }).get('/api/v1/tags'), 403, 'FORBIDDEN');
  });
});
