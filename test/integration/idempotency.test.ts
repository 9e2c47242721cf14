import type { Tenant } from '../../shared/domain/auth/tenant';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { keyDigest } from '../../shared/domain/idempotency/key';
import { idempotency } from '../../shared/data/registry/requests';
import { route } from '../../shared/http/route';
import { client, expectError, type ApiResponse } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';

const env = useTestStack({ workers: false });
const CUSTOMERS = '/api/v1/contacts/customers';
const keyed = (key: string) => ({ 'Idempotency-Key': key });

const recordKey = (t: { tenant: Tenant; tokenId: string }, key: string) =>
  idempotency.key({ tenant: t.tenant, tokenId: t.tokenId, keyDigest: keyDigest(key) });

/** Calls a route of the one pipeline as API Gateway would, with an Idempotency-Key. */
const invokeRoute =
  (handler: ReturnType<typeof route>, t: { token: string; workspaceId: string }, key: string) =>
  async (): Promise<{ status: number; body: unknown; replayed?: string }> => {
    const answer = (await handler(
      {
        rawPath: '/api/v1/probe',
        routeKey: 'POST /api/v1/probe',
        headers: { authorization: `Bearer ${t.token}`, 'x-workspace-id': t.workspaceId, 'idempotency-key': key },
        requestContext: { requestId: randomUUID(), http: { method: 'POST', path: '/api/v1/probe', sourceIp: '127.0.0.1' } },
      } as unknown as APIGatewayProxyEventV2,
      {} as Context,
    )) as { statusCode: number; body: string; headers: Record<string, string> };
    return { status: answer.statusCode, body: JSON.parse(answer.body), replayed: answer.headers['Idempotent-Replayed'] };
  };

const total = async (api: ReturnType<typeof client>) => (await api.get(CUSTOMERS)).body.data.pagination.total as number;

const expectReplayOf = (repeat: ApiResponse, first: ApiResponse) => {
  expect(repeat.status).toBe(first.status);
  expect(repeat.body).toEqual(first.body);
  expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  expect(repeat.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
};

describe('Idempotency-Key', () => {
  it('a repeated POST with the same key returns the same resource and status, marked replayed, and creates once', async () => {
    const t = await env.tenant();
    const first = await t.api.post(CUSTOMERS, { name: 'Ada', email: 'ada@example.com' }, keyed('create-ada-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const repeat = await t.api.post(CUSTOMERS, { name: 'Ada', email: 'ada@example.com' }, keyed('create-ada-1'));
    expectReplayOf(repeat, first);
    expect(await total(t.api)).toBe(1);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.created')).toHaveLength(1);
  });

  it('a repeated PATCH with the same key changes once: one version bump, one event', async () => {
    const t = await env.tenant();
    const id = (await t.api.post(CUSTOMERS, { name: 'Bo' })).body.data.customer._id;
    const first = await t.api.patch(`${CUSTOMERS}/${id}`, { name: 'Bob' }, keyed('rename-bo'));
    expect(first.status).toBe(200);
    expectReplayOf(await t.api.patch(`${CUSTOMERS}/${id}`, { name: 'Bob' }, keyed('rename-bo')), first);
    expect((await t.api.get(`${CUSTOMERS}/${id}`)).body.data.customer).toEqual(first.body.data.customer);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.updated')).toHaveLength(1);
  });

  it('the same key with another body or path gets 409 CONFLICT naming the key, and changes nothing', async () => {
    const t = await env.tenant();
    await t.api.post(CUSTOMERS, { name: 'Cy' }, keyed('k-conflict'));
    for (const res of [
      await t.api.post(CUSTOMERS, { name: 'Cyril' }, keyed('k-conflict')),
      await t.api.post('/api/v1/tags', { name: 'Cy' }, keyed('k-conflict')),
    ]) {
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toContain('"k-conflict"');
      expect(res.body.error.details).toEqual({ idempotencyKey: 'k-conflict' });
    }
    // Keys are case-sensitive: another case is another key.
    expect((await t.api.post(CUSTOMERS, { name: 'Cy' }, keyed('K-CONFLICT'))).status).toBe(201);
    expect(await total(t.api)).toBe(2);
    expect((await t.api.get('/api/v1/tags')).body.data.tags).toHaveLength(0);
  });

  it('a request that needs several transactions (a known customer writing from a new channel) is replayed too, with one of each', async () => {
    const t = await env.tenant();
    await t.api.post(CUSTOMERS, { name: 'Ivy', email: 'ivy@example.com' });
    const body = { channel: 'web', customer: { identifier: 'visitor-ivy', email: 'ivy@example.com' }, content: 'Hello' };
    const first = await t.api.post('/api/v1/inbox/messages/incoming', body, keyed('incoming-1'));
    expect(first.status).toBe(201);
    expectReplayOf(await t.api.post('/api/v1/inbox/messages/incoming', body, keyed('incoming-1')), first);
    expect(await total(t.api)).toBe(1);
    for (const type of ['customer.contact.updated', 'inbox.conversation.created', 'inbox.message.received']) {
      expect(await outboxEvents(t.workspaceId, type), type).toHaveLength(1);
    }
    // It ran eagerly: each of its transactions (the identity added, then the conversation opened with the message) carried the record's marker.
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config().TABLE_NAME, Key: recordKey(t, 'incoming-1'), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ status: 'done', commits: 2 });
  });

  it("a new sender's first message is one transaction (customer, conversation and message), replayed whole", async () => {
    const t = await env.tenant();
    const body = { channel: 'email', customer: { identifier: 'june@example.com', name: 'June' }, content: 'Hello' };
    const first = await t.api.post('/api/v1/inbox/messages/incoming', body, keyed('incoming-2'));
    expect(first.status).toBe(201);
    expectReplayOf(await t.api.post('/api/v1/inbox/messages/incoming', body, keyed('incoming-2')), first);
    expect(await total(t.api)).toBe(1);
    for (const type of ['customer.contact.created', 'inbox.conversation.created', 'inbox.message.received']) {
      expect(await outboxEvents(t.workspaceId, type), type).toHaveLength(1);
    }
  });

  it("a handler's failed condition is answered and kept like any 4xx (a duplicate tag name)", async () => {
    const t = await env.tenant();
    await t.api.post('/api/v1/tags', { name: 'vip' });
    const first = await t.api.post('/api/v1/tags', { name: 'vip' }, keyed('dup-tag'));
    expectError(first, 409, 'CONFLICT');
    expectReplayOf(await t.api.post('/api/v1/tags', { name: 'vip' }, keyed('dup-tag')), first);
    expect((await t.api.get('/api/v1/tags')).body.data.tags).toHaveLength(1);
  });

  it('concurrent requests with one key create exactly once; the others replay or get 409 with Retry-After', async () => {
    const t = await env.tenant();
    const responses = await Promise.all(Array.from({ length: 8 }, () => t.api.post(CUSTOMERS, { name: 'Dee' }, keyed('race'))));
    const created = responses.filter((r) => r.status === 201);
    const busy = responses.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(8);
    expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(new Set(created.map((r) => r.body.data.customer._id)).size).toBe(1);
    for (const r of busy) {
      expectError(r, 409, 'CONFLICT');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(await total(t.api)).toBe(1);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.created')).toHaveLength(1);
  });

  it('a key is scoped to the token and to the workspace', async () => {
    const t = await env.tenant();
    const other = await env.tenant();
    const { token } = await tokenFor([t.workspaceId, other.workspaceId], ['admin:all']);
    const second = client(env.stack.baseUrl, { token, workspaceId: t.workspaceId });
    const a = await t.api.post(CUSTOMERS, { name: 'Eve' }, keyed('shared-key'));
    const b = await second.post(CUSTOMERS, { name: 'Eve' }, keyed('shared-key'));
    const c = await second.as({ token, workspaceId: other.workspaceId }).post(CUSTOMERS, { name: 'Eve' }, keyed('shared-key'));
    for (const r of [a, b, c]) {
      expect(r.status).toBe(201);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([a, b, c].map((r) => r.body.data.customer._id)).size).toBe(3);
    expect(await total(t.api)).toBe(2);
    expect(await total(other.api)).toBe(1);
  });

  it('a 4xx answer is kept and replayed; a different body under its key is then a conflict', async () => {
    const t = await env.tenant();
    const first = await t.api.post(CUSTOMERS, { email: 'not an email' }, keyed('bad-input'));
    expectError(first, 422, 'VALIDATION_ERROR');
    expectReplayOf(await t.api.post(CUSTOMERS, { email: 'not an email' }, keyed('bad-input')), first);
    expectError(await t.api.post(CUSTOMERS, { email: 'fixed@example.com' }, keyed('bad-input')), 409, 'CONFLICT');
    expect(await total(t.api)).toBe(0);
  });

  it('an invalid key is a 422 naming the header, before anything runs', async () => {
    const t = await env.tenant();
    for (const key of ['x'.repeat(256), 'clé']) {
      const res = await t.api.post(CUSTOMERS, { name: 'Fay' }, keyed(key));
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]);
    }
    expect((await t.api.post(CUSTOMERS, { name: 'Fay' }, keyed('x'.repeat(255)))).status).toBe(201);
    expect(await total(t.api)).toBe(1);
  });

  it('an expired record no longer answers: the key runs the request again', async () => {
    const t = await env.tenant();
    const first = await t.api.post(CUSTOMERS, { name: 'Gus' }, keyed('old-key'));
    // A day later: DynamoDB's TTL deletes lazily, so the record may still exist with its time run out.
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: recordKey(t, 'old-key'),
        UpdateExpression: 'SET expiresAt = :past, #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    const again = await t.api.post(CUSTOMERS, { name: 'Gus' }, keyed('old-key'));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data.customer._id).not.toBe(first.body.data.customer._id);
  });

  it('requests without a key, and GETs with one, are not affected', async () => {
    const t = await env.tenant();
    await t.api.post(CUSTOMERS, { name: 'Hal' });
    await t.api.post(CUSTOMERS, { name: 'Hal' });
    const list = await t.api.get(CUSTOMERS, keyed('x'));
    expect(list.headers.get('idempotent-replayed')).toBeNull();
    expect(list.body.data.pagination.total).toBe(2);
  });

  it.each([
    { answer: 'a 5xx', failure: new Error('unexpected failure'), status: 500 },
    {
      answer: 'a 429 for throttling',
      failure: new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: {} }),
      status: 429,
    },
  ])('$answer is not kept: the retry with the key runs the request again', async ({ failure, status }) => {
    const t = await env.tenant();
    let calls = 0;
    // A route of the one pipeline whose handler fails the first time only.
    const flaky = route({ scope: 'contacts:write', status: 201, response: z.strictObject({ calls: z.number() }) }, async () => {
      if (++calls === 1) throw failure;
      return { calls };
    });
    const invoke = invokeRoute(flaky, t, `after-a-${status}`);
    expect((await invoke()).status).toBe(status);
    expect(await invoke()).toEqual({ status: 201, body: { success: true, data: { calls: 2 } }, replayed: undefined });
    expect(await invoke()).toEqual({ status: 201, body: { success: true, data: { calls: 2 } }, replayed: 'true' });
    expect(calls).toBe(2);
  });

  it('an answer too large for the record (its body kept in gzipped chunks) is replayed byte for byte', async () => {
    const t = await env.tenant();
    let calls = 0;
    // Over the 64 KiB the record holds inline: kept gzipped in a chunk item, which sorts before the record in their partition.
    const text = Array.from({ length: 5000 }, () => randomUUID()).join(' ');
    const large = route({ scope: 'contacts:write', status: 201, response: z.strictObject({ text: z.string() }) }, async () => {
      calls++;
      return { text };
    });
    const invoke = invokeRoute(large, t, 'large-answer');
    const first = await invoke();
    expect(first).toEqual({ status: 201, body: { success: true, data: { text } }, replayed: undefined });
    expect(await invoke()).toEqual({ ...first, replayed: 'true' });
    expect(calls).toBe(1);
  });
});
