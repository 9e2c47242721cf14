import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../support/api';
import { createTenant } from '../support/tenants';
import { TLS_DIR_ENV } from '../support/tls';
import { eventually, useWebhookStack } from '../support/webhooks';

const ctx = useWebhookStack();
const SECRET = 'receiver-test-secret-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'parley-receiver-'));
let receiver: ChildProcess;
let output = '';

beforeAll(async () => {
  // The receiver keeps an existing certificate: give it the one this run's processes already trust.
  mkdirSync(join(dataDir, 'receiver'));
  for (const f of ['cert.pem', 'key.pem']) copyFileSync(join(process.env[TLS_DIR_ENV]!, f), join(dataDir, 'receiver', f));
  receiver = spawn(process.execPath, ['--import', 'tsx', 'infra/local/receiver.ts', SECRET], {
    env: { ...process.env, PARLEY_DATA_DIR: dataDir, RECEIVER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receiver.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  receiver.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await eventually(async () => output.includes('Deliveries:'), 30_000, 100);
});

afterAll(() => {
  receiver?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const receiverUrl = () => /listening on (https:\/\/127\.0\.0\.1:\d+\/)/.exec(output)![1]!;

describe('npm run receiver', () => {
  it('prints how to start Parley for it and how to subscribe it', () => {
    expect(output).toContain(`WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=${join(dataDir, 'receiver', 'cert.pem')} npm start`);
    expect(output).toContain(JSON.stringify({ url: receiverUrl(), events: ['*'], secret: SECRET }));
  });

  it('receives a real delivery and verifies its signature', async () => {
    const t = await createTenant();
    const api = client(ctx.stack.baseUrl, t);
    const sub = (await api.post('/api/v1/integrations/webhooks', { url: receiverUrl(), events: ['*'], secret: SECRET })).body.data
      .subscription;
    const sent = await api.post(`/api/v1/integrations/webhooks/${sub._id}/test`);
    expect(sent.status).toBe(202);
    const line = new RegExp(`webhook\\.ping ${sent.body.data.delivery.eventId}  attempt 1  signature valid`);
    await eventually(async () => line.test(output), 15_000, 100);
  });

  it('answers 401 to a delivery whose signature does not verify, and says so', async () => {
    const res = await fetch(receiverUrl(), {
      method: 'POST',
      headers: { 'x-webhook-signature': `sha256=${'0'.repeat(64)}`, 'x-webhook-event': 'inbox.note.created', 'x-webhook-id': 'forged' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    await eventually(async () => /inbox\.note\.created forged {2}attempt \? {2}signature INVALID/.test(output), 5_000, 100);
  });
});
