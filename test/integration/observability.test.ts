import { parleyArgv } from '../support/cli-bundle';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { childProcesses } from '../support/child-stack';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { eventually, sleep } from '../support/webhooks';

/**
 * `npm start` as an operator runs it, its output piped: every request leaves one JSON access line, and
 * `parley logs` finds what a request led to from its X-Request-Id. DynamoDB Local and the SQS emulator live
 * in this process; the gateway, pollers and workers in the child.
 */
let stack: LocalStack;
let receiver: Receiver;
let dataDir: string;
let baseUrl: string;
const children = childProcesses();
const output: string[] = [];

beforeAll(async () => {
  stack = await startTestStack({ workers: false, gateway: false });
  receiver = await startReceiver();
  dataDir = mkdtempSync(join(tmpdir(), 'parley-logs-'));
  const started = await children.start(stack, dataDir, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'info' });
  baseUrl = started.baseUrl;
  let partial = '';
  started.child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    output.push(...lines);
  });
});
afterAll(async () => {
  await children.killAll();
  await receiver?.stop();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const linesWith = (text: string) => output.filter((line) => line.includes(text));

const parleyLogs = (...args: string[]) => {
  const res = spawnSync(process.execPath, parleyArgv('logs', ...args, '--json'), {
    encoding: 'utf8',
    env: { ...process.env, PARLEY_DATA_DIR: dataDir },
    timeout: 30_000,
  });
  expect(res.stderr).toBe('');
  return res.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
};

describe('npm start, its output piped', () => {
  it('writes exactly one JSON line for a GET, carrying its X-Request-Id, route, status, duration and caller (never the token)', async () => {
    const tenant = await createTenant();
    const res = await fetch(`${baseUrl}/api/v1/auth/workspaces`, { headers: { authorization: `Bearer ${tenant.token}` } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    await eventually(async () => linesWith(requestId).length > 0, 10_000);
    await sleep(500);

    const mine = linesWith(requestId);
    expect(mine).toHaveLength(1);
    const line = JSON.parse(mine[0]!);
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'request',
      requestId,
      method: 'GET',
      route: 'GET /api/v1/auth/workspaces',
      status: 200,
      tokenId: tenant.tokenId,
      livemode: false,
      rateCategory: 'auth',
      rateRemaining: 19,
      functionName: expect.any(String),
      coldStart: expect.any(Boolean),
      version: '$LATEST',
    });
    expect(line.durationMs).toBeGreaterThan(0);
    expect(mine[0]).not.toContain(tenant.token);
  });

  it('names the route template, the workspace and the error code of a failed request', async () => {
    const tenant = await createTenant();
    const api = client(baseUrl, tenant);
    const res = await api.get('/api/v1/contacts/customers/0123456789abcdef01234567');
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id')!;
    const [line] = await eventually(async () => linesWith(requestId).length > 0 && linesWith(requestId), 10_000);
    expect(JSON.parse(line!)).toMatchObject({
      route: 'GET /api/v1/contacts/customers/{id}',
      status: 404,
      errorCode: 'NOT_FOUND',
      workspaceId: tenant.workspaceId,
      livemode: false,
      rateCategory: 'read',
    });
  });

  it('finds the webhook delivery a POST caused from the POST request id (parley logs --request)', { timeout: 90_000 }, async () => {
    const tenant = await createTenant();
    const api = client(baseUrl, tenant);
    expect((await api.post('/api/v1/integrations/webhooks', { url: receiver.url, events: ['customer.contact.created'] })).status).toBe(201);
    const created = await api.post('/api/v1/contacts/customers', { name: 'Ada' });
    expect(created.status).toBe(201);
    const requestId = created.headers.get('x-request-id')!;
    const [delivered] = await receiver.waitFor(1, 30_000);
    const deliveryId = delivered!.headers['x-webhook-delivery'] as string;
    const eventId = delivered!.headers['x-webhook-id'] as string;

    const story = await eventually(async () => {
      const found = parleyLogs('--request', requestId);
      return found.some((r) => r.message === 'webhook delivery attempt') && found;
    }, 20_000);
    expect(story.find((r) => r.message === 'request')).toMatchObject({ requestId, method: 'POST', status: 201 });
    expect(story.find((r) => r.message === 'webhook fan-out')).toMatchObject({
      requestId,
      eventId,
      eventType: 'customer.contact.created',
      deliveries: 1,
    });
    // The request id reached the delivery worker itself (on the queue message), not only through the event id.
    expect(story.find((r) => r.message === 'webhook delivery attempt')).toMatchObject({
      requestId,
      eventId,
      deliveryId,
      attempt: 1,
      status: 'success',
      httpStatus: 200,
      messageId: expect.any(String),
    });

    expect(parleyLogs('--delivery', deliveryId).map((r) => r.message)).toEqual(['webhook delivery attempt']);
    expect(parleyLogs('--event', eventId).map((r) => r.message)).toEqual(
      expect.arrayContaining(['webhook fan-out', 'webhook delivery attempt']),
    );
  });
});
