import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';
import { client } from '../support/api';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { collect } from '../../shared/data/query';
import { eventsNaming, replayEvents } from '../../shared/data/events-log';
import { deleteStoredEvent, eventPayload } from '../../shared/data/outbox';
import { eventBody, outboxEvent } from '../../shared/data/registry/requests';
import { firstIdAt, lastIdAt } from '../../shared/domain/events/log-range';

const t = useTestStack();

const createCustomers = async (api: ReturnType<typeof client>, n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post('/api/v1/contacts/customers', { name: `Customer ${i}`, email: `c${i}-${Date.now()}@example.com` });
    expect(res.status).toBe(201);
    ids.push(res.body.data.customer._id);
  }
  return ids;
};

/** Moves an event back to where it was stored before the log became the tenant's partition: by id, with a gsi2 entry. */
const storeAsBefore = async (tenant: Tenant, eventId: string) => {
  const TableName = config().TABLE_NAME;
  const logged = outboxEvent.key({ tenant, eventId });
  const { Item } = await dynamo().send(new GetCommand({ TableName, Key: logged, ConsistentRead: true }));
  expect(Item).toBeDefined();
  const before = { ...Item, ...eventBody.key({ eventId }), ...eventBody.index('gsi2', { tenant, eventId }) };
  await dynamo().send(new PutCommand({ TableName, Item: before }));
  await dynamo().send(new DeleteCommand({ TableName, Key: logged }));
};

/** A cursor as a page of the log read from gsi2 issued it, before the move. */
const cursorBefore = (tenant: Tenant, eventId: string) =>
  Buffer.from(JSON.stringify({ ...eventBody.key({ eventId }), ...eventBody.index('gsi2', { tenant, eventId }) })).toString('base64url');

describe('GET /api/v1/events', () => {
  it('lists the workspace’s events newest first, as webhooks deliver them, paged by cursor', async () => {
    const { api } = await t.tenant();
    const customers = await createCustomers(api, 5);
    const first = await api.get('/api/v1/events?limit=3&types=customer.*');
    expect(first.status).toBe(200);
    expect(first.body.data.pagination).toMatchObject({ total: 5, page: 1, limit: 3, pages: 2, hasMore: true });
    const second = await api.get(`/api/v1/events?limit=3&types=customer.*&cursor=${first.body.data.pagination.nextCursor}`);
    const events = [...first.body.data.events, ...second.body.data.events];
    expect(events.map((e: { data: { contact: { _id: string } } }) => e.data.contact._id)).toEqual([...customers].reverse());
    expect(events[0]).toMatchObject({ eventType: 'customer.contact.created', apiVersion: 'v1', livemode: false });
    expect(second.body.data.pagination.hasMore).toBe(false);
  });

  it('with since answers the events after that one, oldest first', async () => {
    const { api } = await t.tenant();
    await createCustomers(api, 2);
    const { body } = await api.get('/api/v1/events?types=customer.contact.created');
    const anchor = body.data.events[0].eventId;
    const later = await createCustomers(api, 3);
    const caught = await api.get(`/api/v1/events?since=${anchor}`);
    expect(caught.body.data.events.map((e: { data: { contact: { _id: string } } }) => e.data.contact._id)).toEqual(later);
    expect(caught.body.data.pagination.total).toBe(3);
  });

  it('filters by types wildcards and by time', async () => {
    const { api } = await t.tenant();
    await createCustomers(api, 1);
    expect((await api.post('/api/v1/crm/pipelines', { name: 'Sales', stages: [{ name: 'New' }] })).status).toBe(201);
    const crm = await api.get('/api/v1/events?types=crm.*');
    expect(crm.body.data.events.map((e: { eventType: string }) => e.eventType)).toEqual(['crm.pipeline.created']);
    const both = await api.get('/api/v1/events?types=crm.pipeline.created,customer.*');
    expect(both.body.data.pagination.total).toBe(2);
    const future = await api.get(`/api/v1/events?from=${new Date(Date.now() + 3_600_000).toISOString()}`);
    expect(future.body.data.events).toEqual([]);
    const past = await api.get(`/api/v1/events?to=${new Date(Date.now() - 3_600_000).toISOString()}`);
    expect(past.body.data.pagination.total).toBe(0);
  });

  it('refuses unknown types, since with from, to before from and a since older than the log with 422', async () => {
    const { api } = await t.tenant();
    for (const query of [
      'types=inbox.nope',
      `since=${'0'.repeat(24)}`,
      `since=${'f'.repeat(24)}&from=2026-01-01T00:00:00Z`,
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      'limit=101',
    ]) {
      const res = await api.get(`/api/v1/events?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('shows a token only the categories whose read scope it holds: absent from lists, 404 by id', async () => {
    const owner = await t.tenant();
    await createCustomers(owner.api, 1);
    expect((await owner.api.post('/api/v1/crm/pipelines', { name: 'Sales', stages: [{ name: 'New' }] })).status).toBe(201);
    const crmEvent = (await owner.api.get('/api/v1/events?types=crm.*')).body.data.events[0];
    const { token } = await tokenFor([owner.workspaceId], ['contacts:read']);
    const reader = client(t.stack.baseUrl, { token, workspaceId: owner.workspaceId });
    const seen = await reader.get('/api/v1/events');
    expect(seen.body.data.events.map((e: { eventType: string }) => e.eventType)).toEqual(['customer.contact.created']);
    expect((await reader.get('/api/v1/events?types=crm.*')).body.data.pagination.total).toBe(0);
    expect((await reader.get(`/api/v1/events/${crmEvent.eventId}`)).status).toBe(404);
    expect((await owner.api.get(`/api/v1/events/${crmEvent.eventId}`)).body.data.event).toEqual(crmEvent);
    const { token: tagsOnly } = await tokenFor([owner.workspaceId], ['tags:read']);
    const none = await client(t.stack.baseUrl, { token: tagsOnly, workspaceId: owner.workspaceId }).get('/api/v1/events');
    expect(none.body.data).toMatchObject({ events: [], pagination: { total: 0 } });
  });

  it('keeps workspaces and modes apart', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    await createCustomers(a.api, 1);
    const aEvent = (await a.api.get('/api/v1/events?types=customer.*')).body.data.events[0];
    const bSees = (await b.api.get('/api/v1/events')).body.data.events;
    expect(bSees.length).toBeGreaterThan(0);
    expect(bSees.every((e: { workspaceId: string }) => e.workspaceId === b.workspaceId)).toBe(true);
    expect((await b.api.get(`/api/v1/events/${aEvent.eventId}`)).status).toBe(404);
    const live = await t.liveMode(a);
    expect((await live.api.get('/api/v1/events?types=customer.*')).body.data.events).toEqual([]);
    expect((await live.api.get(`/api/v1/events/${aEvent.eventId}`)).status).toBe(404);
  });

  it('reads events stored before the log moved into the tenant partition with the new ones, in order, by id, replayed and erased', async () => {
    const { api, tenant } = await t.tenant();
    const customers = await createCustomers(api, 6);
    const newestFirst = (await api.get('/api/v1/events?types=customer.*')).body.data.events.map((e: { eventId: string }) => e.eventId);
    const ids = [...newestFirst].reverse();
    for (const id of ids.filter((_, i) => i % 2 === 0)) await storeAsBefore(tenant, id);

    const pages: string[][] = [];
    let cursor = '';
    do {
      const res = await api.get(`/api/v1/events?types=customer.*&limit=2${cursor && `&cursor=${cursor}`}`);
      expect(res.body.data.pagination.total).toBe(6);
      pages.push(res.body.data.events.map((e: { eventId: string }) => e.eventId));
      cursor = res.body.data.pagination.nextCursor ?? '';
    } while (cursor);
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
    const third = await api.get('/api/v1/events?types=customer.*&limit=2&page=3');
    expect(third.body.data.events.map((e: { eventId: string }) => e.eventId)).toEqual(newestFirst.slice(4));
    const resumed = await api.get(`/api/v1/events?types=customer.*&limit=2&cursor=${cursorBefore(tenant, newestFirst[1])}`);
    expect(resumed.body.data.events.map((e: { eventId: string }) => e.eventId)).toEqual(newestFirst.slice(2, 4));
    const caught = await api.get(`/api/v1/events?since=${ids[0]}&types=customer.*`);
    expect(caught.body.data.events.map((e: { eventId: string }) => e.eventId)).toEqual(ids.slice(1));

    const before = (await api.get(`/api/v1/events/${ids[0]}`)).body.data.event;
    expect(before.data.contact._id).toBe(customers[0]);
    expect(JSON.parse((await eventPayload(tenant, ids[0]))!).eventId).toBe(ids[0]);
    const range = [firstIdAt(Date.now() - 3_600_000), lastIdAt(Date.now())] as const;
    const replayed = await collect(replayEvents(tenant, range, { exact: [], prefixes: ['customer.'] }));
    expect(replayed.map((e) => e.eventId)).toEqual(ids);

    expect(await eventsNaming(tenant, [customers[0]!, customers[1]!])).toEqual(expect.arrayContaining(ids.slice(0, 2)));
    for (const id of ids.slice(0, 2)) {
      expect(await deleteStoredEvent(tenant, id, [])).toBe(true);
      expect(await deleteStoredEvent(tenant, id, [])).toBe(false);
    }
    expect((await api.get('/api/v1/events?types=customer.*')).body.data.pagination.total).toBe(4);
  });
});
