import { describe, expect, it } from 'vitest';
import { client, expectError } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { customerKey } from '../../shared/data/entity-keys';
import { workspaceCounter } from '../../shared/data/counters';
import { cursorAfter } from '../../shared/data/query';
import { customer as customerEntity } from '../../shared/data/registry/contacts';

const env = useTestStack();

const CUSTOMERS = '/api/v1/contacts/customers';
const CONV = '/api/v1/inbox/conversations';

const tenant = async () => {
  const t = await env.tenant();
  const { api } = t;
  const create = async (body: Record<string, unknown>) => {
    const res = await api.post(CUSTOMERS, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.customer;
  };
  return { ...t, api, create };
};

const paths = (res: { body: any }) => res.body.error.details.errors.map((e: { path: string }) => e.path).sort();

const contactEvents = async (ws: string, type: string, id: string) =>
  (await outboxEvents(ws, type)).filter((e) => (e.data.contact as { _id: string })._id === id);

describe('creating, reading, updating and deleting customers', () => {
  it('creates a customer with a normalised email and one created event', async () => {
    const t = await tenant();
    const customer = await t.create({
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      phone: '+442071234567',
      externalId: 'crm-1',
      attributes: { plan: 'pro', seats: 3 },
      identities: [{ channel: 'email', identifier: 'ada@example.com' }],
    });
    expect(customer).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+442071234567',
      externalId: 'crm-1',
      attributes: { plan: 'pro', seats: 3 },
      tagIds: [],
      blocked: false,
      lastActivityAt: null,
    });
    expect((await t.api.get(`${CUSTOMERS}/${customer._id}`)).body.data.customer).toEqual(customer);
    expect(await contactEvents(t.workspaceId, 'customer.contact.created', customer._id)).toHaveLength(1);
  });

  it('keeps email, phone and channel identities unique per workspace (409 naming the field)', async () => {
    const t = await tenant();
    await t.create({ email: 'sam@example.com', phone: '+15550000001', identities: [{ channel: 'sms', identifier: 'x1' }] });
    for (const [body, field] of [
      [{ email: 'SAM@example.com' }, 'email'],
      [{ phone: '+15550000001' }, 'phone'],
      [{ identities: [{ channel: 'sms', identifier: 'x1' }] }, 'identities[0]'],
    ] as const) {
      const res = await t.api.post(CUSTOMERS, body);
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.details.field).toBe(field);
    }
    const other = await tenant();
    await other.create({ email: 'sam@example.com' });
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(1);
  });

  it('reports each invalid field with its path', async () => {
    const t = await tenant();
    const res = await t.api.post(CUSTOMERS, {
      email: 'nope',
      phone: '555-1234',
      attributes: { '1bad': 1 },
      identities: [{ channel: 'fax', identifier: 'x' }],
      vip: true,
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(paths(res)).toEqual(['attributes.1bad', 'email', 'identities[0].channel', 'phone', 'vip']);
  });

  it('refuses attribute keys and numbers the storage cannot hold (422 naming the key), on create and on update', async () => {
    const t = await tenant();
    const c = await t.create({ attributes: { plan: 'pro' } });
    const cases: [string, string][] = [
      ['{"__proto__": {"admin": true}}', 'attributes.__proto__'],
      ['{"__proto__": 1}', 'attributes.__proto__'],
      ['{"constructor": 1}', 'attributes.constructor'],
      ['{"prototype": "x"}', 'attributes.prototype'],
      ['{"toString": "x"}', 'attributes.toString'],
      ['{"big": 1e300}', 'attributes.big'],
      ['{"unsafe": 9007199254740993}', 'attributes.unsafe'],
      ['{"digits": 12345678901234567890123456789012345678901}', 'attributes.digits'],
      ['{"zero": -0}', 'attributes.zero'],
      ['{"tiny": 1e-200}', 'attributes.tiny'],
      ['{"text": "\\ud800"}', 'attributes.text'],
    ];
    for (const [attributes, path] of cases) {
      for (const res of [
        await t.api.post(CUSTOMERS, `{"attributes": ${attributes}}`),
        await t.api.patch(`${CUSTOMERS}/${c._id}`, `{"attributes": ${attributes}}`),
      ]) {
        expectError(res, 422, 'VALIDATION_ERROR');
        expect(paths(res), attributes).toEqual([path]);
      }
    }
    expect((await t.api.get(`${CUSTOMERS}/${c._id}`)).body.data.customer.attributes).toEqual({ plan: 'pro' });
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(1);
  });

  it('keeps the attributes within their limits once merged: a PATCH that would grow them past 50 is 422', async () => {
    const t = await tenant();
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a${i}`, i]));
    const c = await t.create({ attributes: fifty });
    const res = await t.api.patch(`${CUSTOMERS}/${c._id}`, { attributes: { one: 'more' } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(paths(res)).toEqual(['attributes']);
    expect((await t.api.patch(`${CUSTOMERS}/${c._id}`, { attributes: { a0: null, one: 'more' } })).status).toBe(200);
  });

  it('updates fields, merges attributes, releases the old email, and reports changes', async () => {
    const t = await tenant();
    const c = await t.create({ name: 'Lee', email: 'lee@example.com', attributes: { plan: 'free', city: 'Oslo' } });
    const res = await t.api.patch(`${CUSTOMERS}/${c._id}`, { email: 'lee@new.example.com', attributes: { plan: 'pro', city: null } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.customer).toMatchObject({ email: 'lee@new.example.com', attributes: { plan: 'pro' }, name: 'Lee' });
    const updated = await contactEvents(t.workspaceId, 'customer.contact.updated', c._id);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.changes).toEqual({
      email: ['lee@example.com', 'lee@new.example.com'],
      attributes: [{ plan: 'free', city: 'Oslo' }, { plan: 'pro' }],
    });
    await t.create({ email: 'lee@example.com' });
    expectError(await t.api.post(CUSTOMERS, { email: 'lee@new.example.com' }), 409, 'CONFLICT');
  });

  it("refuses a PATCH that takes another customer's email or identity (409) and leaves the customer unchanged", async () => {
    const t = await tenant();
    await t.create({ email: 'taken@example.com', identities: [{ channel: 'web', identifier: 'v1' }] });
    const c = await t.create({ email: 'mine@example.com' });
    const email = await t.api.patch(`${CUSTOMERS}/${c._id}`, { email: 'taken@example.com', name: 'X' });
    expectError(email, 409, 'CONFLICT');
    expect(email.body.error.details.field).toBe('email');
    const identity = await t.api.patch(`${CUSTOMERS}/${c._id}`, {
      identities: [
        { channel: 'sms', identifier: 's1' },
        { channel: 'web', identifier: 'v1' },
      ],
    });
    expectError(identity, 409, 'CONFLICT');
    expect(identity.body.error.details.field).toBe('identities[1]');
    expect((await t.api.get(`${CUSTOMERS}/${c._id}`)).body.data.customer).toMatchObject({
      email: 'mine@example.com',
      name: null,
      identities: [],
    });
    expect(await contactEvents(t.workspaceId, 'customer.contact.updated', c._id)).toHaveLength(0);
  });

  it('blocks and unblocks with one event each; repeating either is 409', async () => {
    const t = await tenant();
    const c = await t.create({ name: 'Bo' });
    expect((await t.api.post(`${CUSTOMERS}/${c._id}/block`)).body.data.customer.blocked).toBe(true);
    expectError(await t.api.post(`${CUSTOMERS}/${c._id}/block`), 409, 'CONFLICT');
    expect((await t.api.post(`${CUSTOMERS}/${c._id}/unblock`)).body.data.customer.blocked).toBe(false);
    expectError(await t.api.post(`${CUSTOMERS}/${c._id}/unblock`), 409, 'CONFLICT');
    expect((await contactEvents(t.workspaceId, 'customer.contact.blocked', c._id)).map((e) => e.changes)).toEqual([
      { blocked: [false, true] },
    ]);
    expect((await contactEvents(t.workspaceId, 'customer.contact.unblocked', c._id)).map((e) => e.changes)).toEqual([
      { blocked: [true, false] },
    ]);
  });

  it('deletes a customer without conversations and frees its email; one with conversations is 409', async () => {
    const t = await tenant();
    const lonely = await t.create({ email: 'gone@example.com' });
    const busy = await t.create({ name: 'Busy' });
    await t.api.post(CONV, { customerId: busy._id });
    const refused = await t.api.delete(`${CUSTOMERS}/${busy._id}`);
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.details).toEqual({ conversations: 1 });
    const res = await t.api.delete(`${CUSTOMERS}/${lonely._id}`);
    expect(res.body.data).toMatchObject({ deleted: true, customer: { _id: lonely._id } });
    expectError(await t.api.get(`${CUSTOMERS}/${lonely._id}`), 404, 'NOT_FOUND');
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(1);
    await t.create({ email: 'gone@example.com' });
    expect(await contactEvents(t.workspaceId, 'customer.contact.deleted', lonely._id)).toHaveLength(1);
  });

  it("counts a sender's conversations on the customer item and on its count's item as one total, exact through deletes", async () => {
    const t = await tenant();
    const incoming = { channel: 'web', customer: { identifier: 'visitor-7' }, content: 'Hello' };
    const first = await t.api.post('/api/v1/inbox/messages/incoming', incoming);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const customerId = first.body.data.customer._id as string;
    const second = (await t.api.post(CONV, { customerId })).body.data.conversation._id as string;
    const ofCustomer = async () => (await t.api.get(`${CONV}?customerId=${customerId}`)).body.data.pagination.total;
    expect(await ofCustomer()).toBe(2);
    expect((await t.api.delete(`${CUSTOMERS}/${customerId}`)).body.error.details).toEqual({ conversations: 2 });
    // The sender writes again: the customer's latest conversation on its channel is still the first.
    const again = await t.api.post('/api/v1/inbox/messages/incoming', { ...incoming, content: 'Still there?' });
    expect(again.body.data.conversation._id).toBe(first.body.data.conversation._id);
    for (const id of [first.body.data.conversation._id, second]) expect((await t.api.delete(`${CONV}/${id}`)).status).toBe(200);
    expect(await ofCustomer()).toBe(0);
    expect((await t.api.delete(`${CUSTOMERS}/${customerId}`)).status).toBe(200);
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(0);
  });

  it("keeps the customers total on the workspace's count item, added to the counter kept before, exact through every writer", async () => {
    const t = await tenant();
    const total = async () => (await t.api.get(CUSTOMERS)).body.data.pagination.total;
    const [a, b] = [await t.create({ name: 'A' }), await t.create({ name: 'B' })];
    // A new sender's first message counts its customer and its conversation in one bump of the count item.
    const sent = await t.api.post('/api/v1/inbox/messages/incoming', { channel: 'web', customer: { identifier: 'v-1' }, content: 'Hi' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(await total()).toBe(3);
    const counts = async () => {
      const read = async (name: string) =>
        (
          await dynamo().send(
            new GetCommand({ TableName: config().TABLE_NAME, Key: workspaceCounter(t.tenant, name), ConsistentRead: true }),
          )
        ).Item;
      return {
        before: (await read('customers'))?.n,
        now: (await read('conversations'))?.customers,
        open: (await read('conversations'))?.['status:open'],
      };
    };
    expect(await counts()).toEqual({ before: undefined, now: 3, open: 1 });
    // As a workspace counted before: two of them on the counter of its own.
    const move = (name: string, total: string, delta: number) =>
      dynamo().send(
        new UpdateCommand({
          TableName: config().TABLE_NAME,
          Key: workspaceCounter(t.tenant, name),
          UpdateExpression: 'ADD #t :d',
          ExpressionAttributeNames: { '#t': total },
          ExpressionAttributeValues: { ':d': delta },
        }),
      );
    await move('conversations', 'customers', -2);
    await move('customers', 'n', 2);
    expect(await total()).toBe(3);
    expect((await t.api.delete(`${CUSTOMERS}/${a._id}`)).status).toBe(200);
    expect(await total()).toBe(2);
    const merged = await t.api.post(`${CUSTOMERS}/merge`, { baseId: b._id, mergeeId: sent.body.data.customer._id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await total()).toBe(1);
    expect(await counts()).toEqual({ before: 2, now: -1, open: 1 });
  });

  it('never both deletes a customer and opens a conversation of it, when the two race', async () => {
    const t = await tenant();
    for (let round = 0; round < 4; round++) {
      const customer = await t.create({ name: `Racer ${round}` });
      // Every other round the customer's count item exists already (a conversation opened and deleted), at 0.
      if (round % 2) {
        const earlier = (await t.api.post(CONV, { customerId: customer._id })).body.data.conversation._id;
        expect((await t.api.delete(`${CONV}/${earlier}`)).status).toBe(200);
      }
      const [opened, deleted] = await Promise.all([
        t.api.post(CONV, { customerId: customer._id }),
        t.api.delete(`${CUSTOMERS}/${customer._id}`),
      ]);
      expect([opened.status, deleted.status].sort(), JSON.stringify([opened.body, deleted.body])).toEqual(
        opened.status === 201 ? [201, 409] : [200, 422],
      );
      const total = (await t.api.get(`${CONV}?customerId=${customer._id}`)).body.data.pagination.total;
      expect(total).toBe(deleted.status === 200 ? 0 : 1);
    }
  });

  it("answers 404 for another workspace's customer on every route and needs contacts scopes", async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.create({ name: 'Theirs', email: 'theirs@example.com' });
    expectError(await t.api.get(`${CUSTOMERS}/${theirs._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.patch(`${CUSTOMERS}/${theirs._id}`, { name: 'Mine' }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`${CUSTOMERS}/${theirs._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.post(`${CUSTOMERS}/${theirs._id}/block`), 404, 'NOT_FOUND');
    const mine = await t.create({ name: 'Mine' });
    const merge = await t.api.post(`${CUSTOMERS}/merge`, { baseId: mine._id, mergeeId: theirs._id });
    expectError(merge, 422, 'VALIDATION_ERROR');
    expect(paths(merge)).toEqual(['mergeeId']);
    expect((await t.api.get(`${CUSTOMERS}?email=theirs`)).body.data.customers).toEqual([]);
    expect((await other.api.get(`${CUSTOMERS}/${theirs._id}`)).body.data.customer.name).toBe('Theirs');
    const reader = client(env.stack.baseUrl, {
      token: (await tokenFor([t.workspaceId], ['contacts:read'])).token,
      workspaceId: t.workspaceId,
    });
    expect((await reader.get(CUSTOMERS)).status).toBe(200);
    expectError(await reader.post(CUSTOMERS, { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await reader.delete(`${CUSTOMERS}/${mine._id}`), 403, 'FORBIDDEN');
    const inbox = client(env.stack.baseUrl, {
      token: (await tokenFor([t.workspaceId], ['inbox:read', 'inbox:write'])).token,
      workspaceId: t.workspaceId,
    });
    expectError(await inbox.get(CUSTOMERS), 403, 'FORBIDDEN');
  });
});

describe('listing and search', () => {
  it('searches by case- and accent-insensitive name prefix, email prefix and phone prefix with exact totals', async () => {
    const t = await tenant();
    const jose = await t.create({ name: 'José Díaz', email: 'jose@acme.io', phone: '+34600111222' });
    const joan = await t.create({ name: 'joan miró', email: 'joan@other.io', phone: '+34600999888' });
    await t.create({ name: 'Ana', email: 'ana@acme.io', phone: '+15550000002' });
    const find = async (q: string) => {
      const res = await t.api.get(`${CUSTOMERS}?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.customers.map((c: { _id: string }) => c._id).sort(), total: res.body.data.pagination.total };
    };
    expect(await find('name=JO')).toEqual({ ids: [jose._id, joan._id].sort(), total: 2 });
    expect(await find(`name=${encodeURIComponent('jose d')}`)).toEqual({ ids: [jose._id], total: 1 });
    expect(await find('email=JOSE%40')).toEqual({ ids: [jose._id], total: 1 });
    expect(await find('phone=%2B346')).toEqual({ ids: [jose._id, joan._id].sort(), total: 2 });
    expect(await find('name=zz')).toEqual({ ids: [], total: 0 });
    expect((await find('')).total).toBe(3);
    const both = await t.api.get(`${CUSTOMERS}?name=jo&email=jo`);
    expectError(both, 422, 'VALIDATION_ERROR');
    expect(paths(both)).toEqual(['email']);
  });

  it('keeps search in step with renames and the total exact under concurrent creates and deletes', async () => {
    const t = await tenant();
    const c = await t.create({ name: 'Old Name' });
    await t.api.patch(`${CUSTOMERS}/${c._id}`, { name: 'New Name' });
    expect((await t.api.get(`${CUSTOMERS}?name=old`)).body.data.pagination.total).toBe(0);
    expect((await t.api.get(`${CUSTOMERS}?name=new`)).body.data.customers.map((x: { _id: string }) => x._id)).toEqual([c._id]);
    const doomed = await Promise.all(Array.from({ length: 8 }, (_, i) => t.create({ name: `Doomed ${i}` })));
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => t.create({ name: `Bulk ${i}`, email: `bulk${i}@example.com` })),
      ...doomed.map((d) => t.api.delete(`${CUSTOMERS}/${d._id}`).then((r) => expect(r.status).toBe(200))),
    ]);
    const all = await t.api.get(`${CUSTOMERS}?limit=100`);
    expect(all.body.data.pagination.total).toBe(21);
    expect(all.body.data.customers).toHaveLength(21);
    expect((await t.api.get(`${CUSTOMERS}?name=doomed`)).body.data.pagination.total).toBe(0);
  });

  it('keeps the list and name search as keys-only entries, and reads and moves over the customers stored before in gsi1 and gsi2', async () => {
    const t = await tenant();
    const old = await t.create({ name: 'Ann Old', identities: [{ channel: 'email', identifier: 'ann@example.com' }] });
    const fresh = await t.create({ name: 'Ann New' });
    const bob = await t.create({ email: 'bob@example.com' });
    const stored = async (id: string) =>
      (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: customerKey(t.tenant, id), ConsistentRead: true }))).Item!;
    const entries = (item: Record<string, unknown>) => ['gsi1pk', 'gsi2pk', 'gsi3pk', 'gsi4pk'].filter((a) => item[a] !== undefined);
    // A new customer's entries are in the keys-only indexes only, its name search entry only when it has a name.
    expect(entries(await stored(fresh._id))).toEqual(['gsi3pk', 'gsi4pk']);
    expect(entries(await stored(bob._id))).toEqual(['gsi3pk']);
    // As stored before: its entries in gsi1 (all) and gsi2 (name), which project the whole item.
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: customerKey(t.tenant, old._id),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk, gsi4pk, gsi4sk SET gsi1pk = :a, gsi1sk = :id, gsi2pk = :n, gsi2sk = :ns',
        ExpressionAttributeValues: {
          ':a': customerEntity.build('gsi1pk', { tenant: t.tenant }),
          ':id': old._id,
          ':n': customerEntity.build('gsi2pk', { tenant: t.tenant }),
          ':ns': `ann old#${old._id}`,
        },
      }),
    );
    const page = async (query: string) => {
      const res = await t.api.get(`${CUSTOMERS}?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        ids: res.body.data.customers.map((c: { _id: string }) => c._id),
        total: res.body.data.pagination.total,
        next: res.body.data.pagination.nextCursor,
      };
    };
    const ids = async (query: string) => {
      const { ids, total } = await page(query);
      return { ids, total };
    };
    const walk = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const p = await page(`${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...p.ids);
        cursor = p.next;
      } while (cursor);
      return seen;
    };
    const all = customerEntity.build('gsi1pk', { tenant: t.tenant });
    const checks = async () => {
      expect(await ids('')).toEqual({ ids: [bob._id, fresh._id, old._id], total: 3 });
      expect(await walk('')).toEqual([bob._id, fresh._id, old._id]);
      expect(await ids('limit=1&page=3')).toEqual({ ids: [old._id], total: 3 });
      expect(await ids('name=ann')).toEqual({ ids: [fresh._id, old._id], total: 2 });
      expect(await walk('name=ann')).toEqual([fresh._id, old._id]);
      expect(await ids('name=ann&limit=1&page=2')).toEqual({ ids: [old._id], total: 2 });
      // A cursor in the shape the list's cursors had (a gsi1 key) resumes after the customer it names.
      const issued = cursorAfter({ index: 'gsi1', pk: all }, { ...customerKey(t.tenant, bob._id), gsi1pk: all, gsi1sk: bob._id });
      expect(await ids(`cursor=${issued}`)).toEqual({ ids: [fresh._id, old._id], total: 3 });
    };
    await checks();
    // A message's stamp leaves it where it is; its next change moves it over, whatever the change.
    const message = { channel: 'email', customer: { identifier: 'ann@example.com' }, content: 'Hi' };
    const sent = await t.api.post('/api/v1/inbox/messages/incoming', message);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.customer._id).toBe(old._id);
    expect(entries(await stored(old._id))).toEqual(['gsi1pk', 'gsi2pk']);
    await checks();
    expect((await t.api.patch(`${CUSTOMERS}/${old._id}`, { attributes: { plan: 'pro' } })).status).toBe(200);
    expect(entries(await stored(old._id))).toEqual(['gsi3pk', 'gsi4pk']);
    await checks();
    // A rename moves its search entry.
    expect((await t.api.patch(`${CUSTOMERS}/${fresh._id}`, { name: 'Zed' })).status).toBe(200);
    expect(await ids('name=ann')).toEqual({ ids: [old._id], total: 1 });
    expect(await ids('')).toEqual({ ids: [bob._id, fresh._id, old._id], total: 3 });
  });

  it('filters by tag using the tags area links, with the per-tag total', async () => {
    const t = await tenant();
    const tag = (await t.api.post('/api/v1/tags', { name: 'vip' })).body.data.tag;
    const a = await t.create({ name: 'A' });
    await t.create({ name: 'B' });
    expect((await t.api.post(`${CUSTOMERS}/${a._id}/tags`, { tagIds: [tag._id] })).status).toBeLessThan(300);
    const res = await t.api.get(`${CUSTOMERS}?tagId=${tag._id}`);
    expect(res.body.data.customers.map((c: { _id: string; tagIds: string[] }) => [c._id, c.tagIds])).toEqual([[a._id, [tag._id]]]);
    expect(res.body.data.pagination.total).toBe(1);
  });
});

describe('merging customers', () => {
  it("moves the mergee's conversations, tags, identities and missing fields to the base, in one merged event", async () => {
    const t = await tenant();
    const tag = (await t.api.post('/api/v1/tags', { name: 'lead' })).body.data.tag;
    const base = await t.create({ name: 'Base', attributes: { plan: 'pro' } });
    const mergee = await t.create({
      name: 'Dup',
      email: 'dup@example.com',
      phone: '+15550000003',
      attributes: { plan: 'free', city: 'Rome' },
      identities: [{ channel: 'whatsapp', identifier: '+15550000003' }],
    });
    await t.api.post(`${CUSTOMERS}/${mergee._id}/tags`, { tagIds: [tag._id] });
    const convs = await Promise.all([0, 1].map(async () => (await t.api.post(CONV, { customerId: mergee._id })).body.data.conversation));
    const res = await t.api.post(`${CUSTOMERS}/merge`, { baseId: base._id, mergeeId: mergee._id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ mergedCustomerId: mergee._id, conversationsMoved: 2 });
    expect(res.body.data.customer).toMatchObject({
      _id: base._id,
      name: 'Base',
      email: 'dup@example.com',
      phone: '+15550000003',
      attributes: { plan: 'pro', city: 'Rome' },
      tagIds: [tag._id],
      identities: [{ channel: 'whatsapp', identifier: '+15550000003' }],
    });
    expectError(await t.api.get(`${CUSTOMERS}/${mergee._id}`), 404, 'NOT_FOUND');
    for (const c of convs) expect((await t.api.get(`${CONV}/${c._id}`)).body.data.conversation.customerId).toBe(base._id);
    expect((await t.api.get(`${CONV}?customerId=${base._id}`)).body.data.pagination.total).toBe(2);
    expect((await t.api.get(`${CONV}?customerId=${mergee._id}`)).body.data.pagination.total).toBe(0);
    const tagged = await t.api.get(`${CUSTOMERS}?tagId=${tag._id}`);
    expect(tagged.body.data.customers.map((c: { _id: string }) => c._id)).toEqual([base._id]);
    expect(tagged.body.data.pagination.total).toBe(1);
    expect((await t.api.get(`${CUSTOMERS}?email=dup`)).body.data.customers.map((c: { _id: string }) => c._id)).toEqual([base._id]);
    expectError(await t.api.post(CUSTOMERS, { email: 'dup@example.com' }), 409, 'CONFLICT');
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(1);
    const merged = await contactEvents(t.workspaceId, 'customer.contact.merged', base._id);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.changes).toMatchObject({ email: [null, 'dup@example.com'], tagIds: [[], [tag._id]] });
    expect((merged[0]!.data.mergedContact as { _id: string })._id).toBe(mergee._id);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.deleted')).toHaveLength(0);
    const moved = (await outboxEvents(t.workspaceId, 'inbox.conversation.updated')).map((e) => e.changes!.customerId);
    expect(moved).toEqual([
      [mergee._id, base._id],
      [mergee._id, base._id],
    ]);
    const del = await t.api.delete(`${CUSTOMERS}/${base._id}`);
    expectError(del, 409, 'CONFLICT');
    expect(del.body.error.details).toEqual({ conversations: 2 });
  });

  it('refuses merging a customer into itself and unknown ids named in the body (422, each named)', async () => {
    const t = await tenant();
    const c = await t.create({ name: 'Solo' });
    const self = await t.api.post(`${CUSTOMERS}/merge`, { baseId: c._id, mergeeId: c._id });
    expectError(self, 422, 'VALIDATION_ERROR');
    expect(paths(self)).toEqual(['mergeeId']);
    const unknownMergee = await t.api.post(`${CUSTOMERS}/merge`, { baseId: c._id, mergeeId: '0123456789abcdef01234567' });
    expectError(unknownMergee, 422, 'VALIDATION_ERROR');
    expect(paths(unknownMergee)).toEqual(['mergeeId']);
    const bothUnknown = await t.api.post(`${CUSTOMERS}/merge`, {
      baseId: '0123456789abcdef01234568',
      mergeeId: '0123456789abcdef01234567',
    });
    expect(paths(bothUnknown)).toEqual(['baseId', 'mergeeId']);
    expectError(await t.api.post(`${CUSTOMERS}/merge`, { baseId: c._id }), 400, 'BAD_REQUEST');
  });
});
