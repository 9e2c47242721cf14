import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';

const env = useTestStack();

const CUSTOMERS = '/api/v1/contacts/customers';
const BATCH = `${CUSTOMERS}/batch`;

const eventsOf = async (workspaceId: string, type: string) =>
  (await outboxEvents(workspaceId, type)).map((e) => (e.data.contact as { _id: string; email: string | null }).email);

describe('POST /api/v1/contacts/customers/batch', () => {
  it('creates, updates and leaves alone by email, one event per change, and reports each input and the counts', async () => {
    const { api, workspaceId } = await env.tenant();
    const existing = (await api.post(CUSTOMERS, { email: 'kept@example.com', name: 'Kept' })).body.data.customer;
    const changed = (await api.post(CUSTOMERS, { email: 'changed@example.com', name: 'Old', phone: '+14155550100' })).body.data.customer;
    const res = await api.post(BATCH, {
      idProperty: 'email',
      inputs: [
        { email: 'New@Example.com', name: 'New', attributes: { plan: 'pro' } },
        { email: 'CHANGED@example.com', name: 'Renamed' },
        { email: 'kept@example.com', name: 'Kept' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    const { results, summary } = res.body.data;
    expect(summary).toEqual({ created: 1, updated: 1, unchanged: 1, errors: 0 });
    expect(results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, 'created'],
      [1, 'updated'],
      [2, 'unchanged'],
    ]);
    expect(results[0].customer).toMatchObject({ email: 'new@example.com', name: 'New', attributes: { plan: 'pro' } });
    // An upsert changes the fields the input names and keeps the others.
    expect(results[1].customer).toMatchObject({ _id: changed._id, name: 'Renamed', phone: '+14155550100' });
    expect(results[2].customer).toEqual(existing);
    expect((await api.get(`${CUSTOMERS}/${changed._id}`)).body.data.customer.name).toBe('Renamed');
    expect((await api.get(CUSTOMERS)).body.data.pagination.total).toBe(3);
    expect(await eventsOf(workspaceId, 'customer.contact.created')).toEqual(['kept@example.com', 'changed@example.com', 'new@example.com']);
    expect(await eventsOf(workspaceId, 'customer.contact.updated')).toEqual(['changed@example.com']);
  });

  it('matches by phone, and a change that takes another customer’s email is that input’s 409 alone', async () => {
    const { api } = await env.tenant();
    await api.post(CUSTOMERS, { email: 'taken@example.com' });
    const byPhone = (await api.post(CUSTOMERS, { phone: '+14155550111', name: 'Phone' })).body.data.customer;
    const res = await api.post(BATCH, {
      idProperty: 'phone',
      inputs: [
        { phone: '+14155550111', email: 'taken@example.com' },
        { phone: '+14155550112', name: 'Second' },
      ],
    });
    expect(res.status).toBe(200);
    const [first, second] = res.body.data.results;
    expect(first).toMatchObject({ index: 0, status: 'error', error: { code: 'CONFLICT', details: { field: 'email' } } });
    expect(second).toMatchObject({ index: 1, status: 'created', customer: { phone: '+14155550112', name: 'Second' } });
    expect((await api.get(`${CUSTOMERS}/${byPhone._id}`)).body.data.customer.email).toBeNull();
  });

  it('refuses a bad input, one without the idProperty and a repeated value alone, with the 422 entries of that input', async () => {
    const { api, workspaceId } = await env.tenant();
    const res = await api.post(BATCH, {
      idProperty: 'email',
      inputs: [
        { email: 'first@example.com', name: 'First' },
        { email: 'not-an-email', unknown: 1 },
        { name: 'No email' },
        { email: 'FIRST@example.com', name: 'Again' },
        'not an object',
        { email: 'last@example.com' },
      ],
    });
    expect(res.status).toBe(200);
    const { results, summary } = res.body.data;
    expect(summary).toEqual({ created: 2, updated: 0, unchanged: 0, errors: 4 });
    const entries = (i: number) => results[i].error.details.errors.map((e: { path: string }) => e.path).sort();
    for (const i of [1, 2, 3, 4]) expect(results[i]).toMatchObject({ index: i, status: 'error', error: { code: 'VALIDATION_ERROR' } });
    expect(entries(1)).toEqual(['email', 'unknown']);
    expect(entries(2)).toEqual(['email']);
    expect(results[3].error.details.errors).toEqual([{ path: 'email', message: 'The same email as inputs[0]' }]);
    expect(entries(4)).toEqual(['']);
    expect(results[0].customer.name).toBe('First');
    expect(results[5].status).toBe('created');
    expect(await eventsOf(workspaceId, 'customer.contact.created')).toEqual(['first@example.com', 'last@example.com']);
  });

  it('refuses a batch that is no batch as a whole: no inputs, over 100, an unknown idProperty', async () => {
    const { api } = await env.tenant();
    expectError(await api.post(BATCH, { idProperty: 'email', inputs: [] }), 422, 'VALIDATION_ERROR');
    const many = Array.from({ length: 101 }, (_, i) => ({ email: `c${i}@example.com` }));
    expectError(await api.post(BATCH, { idProperty: 'email', inputs: many }), 422, 'VALIDATION_ERROR');
    expectError(await api.post(BATCH, { idProperty: 'externalId', inputs: [{}] }), 422, 'VALIDATION_ERROR');
  });

  it('replays a retried batch under the same Idempotency-Key: the same answer, no second event', async () => {
    const { api, workspaceId } = await env.tenant();
    await api.post(CUSTOMERS, { email: 'old@example.com', name: 'Old' });
    const body = { idProperty: 'email', inputs: [{ email: 'one@example.com' }, { email: 'old@example.com', name: 'New' }] };
    const headers = { 'idempotency-key': 'batch-retry-1' };
    const first = await api.post(BATCH, body, headers);
    const again = await api.post(BATCH, body, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body.data.summary).toEqual({ created: 1, updated: 1, unchanged: 0, errors: 0 });
    expect(await eventsOf(workspaceId, 'customer.contact.created')).toEqual(['old@example.com', 'one@example.com']);
    expect(await eventsOf(workspaceId, 'customer.contact.updated')).toEqual(['old@example.com']);
  });

  it('never makes two customers of one email when a single create races the batch', async () => {
    const { api, workspaceId } = await env.tenant();
    const emails = Array.from({ length: 8 }, (_, i) => `race${i}@example.com`);
    const [batch, ...singles] = await Promise.all([
      api.post(BATCH, { idProperty: 'email', inputs: emails.map((email) => ({ email, name: 'From batch' })) }),
      ...emails.map((email) => api.post(CUSTOMERS, { email, name: 'Single' })),
    ]);
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    // Each single create either won (201) or met the batch's customer (409); the batch then updated or created.
    for (const s of singles) expect([201, 409]).toContain(s.status);
    const won = singles.filter((s) => s.status === 201).length;
    expect(batch.body.data.summary).toMatchObject({ created: 8 - won, errors: 0 });
    expect(batch.body.data.summary.updated + batch.body.data.summary.unchanged).toBe(won);
    expect((await api.get(CUSTOMERS)).body.data.pagination.total).toBe(8);
    expect((await eventsOf(workspaceId, 'customer.contact.created')).sort()).toEqual([...emails].sort());
  });
});
