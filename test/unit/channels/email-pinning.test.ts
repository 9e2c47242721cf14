import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailProvider } from '../../../shared/channels/email';
import { pinnedAddress } from '../../../shared/webhooks/send';

describe('pinnedAddress', () => {
  it('gives the address a name resolves to when every one is allowed', async () => {
    expect(await pinnedAddress('127.0.0.1', true)).toBe('127.0.0.1');
    expect(['127.0.0.1', '::1']).toContain(await pinnedAddress('localhost', true));
  });

  it('refuses loopback unless allowed, and link-local metadata addresses always, with SSRF_BLOCKED', async () => {
    await expect(pinnedAddress('127.0.0.1', false)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
    await expect(pinnedAddress('localhost', false)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
    await expect(pinnedAddress('169.254.169.254', true)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
  });
});

describe('the email provider at send time', () => {
  // Something listening where a rebound name would point: it must never be connected to.
  let listener: Server;
  let connections = 0;
  let port: number;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((ready) => listener.listen(0, '127.0.0.1', ready));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => listener.close(() => done())));

  it('fails a send whose host now resolves to a loopback address as ssrf_blocked, an account error, without connecting', async () => {
    // WEBHOOK_ALLOW_PRIVATE_TARGETS is unset here, as on AWS.
    const account = { _id: 'a'.repeat(24), name: 'Support', type: 'email', config: { from: 'support@acme.test', host: 'localhost', port, secure: false } };
    const to = { _id: 'b'.repeat(24), name: 'Jane', email: 'jane@example.com' };
    const outcome = await emailProvider.send(account as never, {}, { key: 'k1', kind: 'message', to: to as never, content: 'Hi', attachments: [], subject: null, references: [], context: {}, attempt: 1 } as never);
    expect(outcome).toEqual({ ok: false, reason: 'ssrf_blocked', retryable: false, accountError: true });
    expect(connections).toBe(0);
  });
});
