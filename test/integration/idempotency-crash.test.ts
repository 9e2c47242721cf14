import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CRASH_AFTER_KEYED_COMMIT, FAULT_ENV } from '../../infra/local/faults';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { createCustomer } from '../../shared/contacts/customers';
import { idempotency } from '../../shared/data/registry/requests';
import { keyDigest } from '../../shared/domain/idempotency/key';
import { client, expectError } from '../support/api';
import { useCrashRig } from '../support/child-stack';
import { outboxEvents } from '../support/outbox';
import { createTenant } from '../support/tenants';
import { direct } from '../../shared/data/unit';

/**
 * The functions run in a child `npm start` process armed with the fault point that SIGKILLs it the moment
 * a keyed change commits, before any response is sent. The client then retries with the same key against
 * a fresh process. DynamoDB Local lives in this test process and survives, as DynamoDB does on AWS.
 */
const rig = useCrashRig('idem-crash');
const armed = { [FAULT_ENV]: CRASH_AFTER_KEYED_COMMIT };
let started = 0;
/** Each process gets a data folder of its own: one runtime per folder. */
const start = (env: Record<string, string> = {}) => rig.start(env, 0, String(started++));

/** Sends the request to an armed process, which dies after the commit: the client sees no answer. */
const crashOn = async (tenant: { token: string; workspaceId: string }, path: string, body: unknown, key: string) => {
  const { child, baseUrl } = await start(armed);
  const exited = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
  await expect(client(baseUrl, tenant).post(path, body, { 'Idempotency-Key': key })).rejects.toThrow();
  expect(await exited).toBe('SIGKILL');
};

describe('exactly once across a crash', () => {
  it('a process killed right after committing a keyed create: the retry gets the one resource, with exactly one event', {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const body = { name: 'Crash Test', email: 'crash@example.com' };
    await crashOn(tenant, '/api/v1/contacts/customers', body, 'crash-create');

    const { baseUrl } = await start();
    const api = client(baseUrl, tenant);
    const retry = await api.post('/api/v1/contacts/customers', body, { 'Idempotency-Key': 'crash-create' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const list = (await api.get('/api/v1/contacts/customers')).body.data;
    expect(list.pagination.total).toBe(1);
    expect(list.customers.map((c: { _id: string }) => c._id)).toEqual([retry.body.data.customer._id]);
    expect(retry.body.data.customer).toMatchObject(body);
    expect(await outboxEvents(tenant.workspaceId, 'customer.contact.created')).toHaveLength(1);
  });

  it('a request of several transactions killed after its first commit is never run again: no second change', {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    // A known customer writing from a new channel: one transaction adds the identity, the next opens the conversation.
    await createCustomer(direct, tenant.tenant, { name: 'Half', email: 'half@example.com' }, new Date());
    const body = { channel: 'web', customer: { identifier: 'visitor-7', email: 'half@example.com' }, content: 'Hi' };
    await crashOn(tenant, '/api/v1/inbox/messages/incoming', body, 'crash-incoming');

    const { baseUrl } = await start();
    const api = client(baseUrl, tenant);
    const retry = () => api.post('/api/v1/inbox/messages/incoming', body, { 'Idempotency-Key': 'crash-incoming' });
    const busy = await retry();
    expectError(busy, 409, 'CONFLICT');
    expect(busy.headers.get('retry-after')).toBe('1');
    // A minute later the dead request's hold on the key has run out.
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: idempotency.key({ tenant: tenant.tenant, tokenId: tenant.tokenId, keyDigest: keyDigest('crash-incoming') }),
        UpdateExpression: 'SET lockUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const lost = await retry();
    expectError(lost, 409, 'CONFLICT');
    expect(lost.body.error.message).toContain('will not run again');
    expect((await api.get('/api/v1/contacts/customers')).body.data.pagination.total).toBe(1);
    expect(await outboxEvents(tenant.workspaceId, 'customer.contact.updated')).toHaveLength(1);
    expect((await api.get('/api/v1/inbox/conversations')).body.data.pagination.total).toBe(0);
  });
});
