import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailProvider } from '../../../shared/channels/email';
import { EmailConfig } from '../../../shared/domain/channels/account';
import { ValidationError } from '../../../shared/domain/errors';
import { assertAllowedTarget, pinnedAddress } from '../../../shared/outbound/https';

describe("an email account's host", () => {
  // Found by the schema fuzz: `smtp://mxc<E\`[7Be1s:1` is no URL, and parsing it threw a 500.
  const hosts = ['mxc<E`[7Be1s', 'smtp.example.com/x', 'a b', 'host?x'];

  it('is a host name or an IP address, else 422 on config.host', () => {
    for (const host of ['smtp.example.com', 'mail-1.example.co.uk.', '203.0.113.7', '2001:db8::1'])
      expect(EmailConfig.safeParse({ from: 'a@example.com', host, port: 587 }).success).toBe(true);
    for (const host of hosts) expect(EmailConfig.safeParse({ from: 'a@example.com', host, port: 587 }).success, host).toBe(false);
  });

  it('that is no URL fails the target check as a validation error, not a crash', async () => {
    for (const host of hosts) {
      await expect(assertAllowedTarget(`smtp://${host}:1`, false, 'config.host')).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

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
    const account = {
      _id: 'a'.repeat(24),
      name: 'Support',
      type: 'email',
      config: { from: 'support@acme.test', host: 'localhost', port, secure: false },
    };
    const to = { _id: 'b'.repeat(24), name: 'Jane', email: 'jane@example.com' };
    const outcome = await emailProvider.send(account as never, {}, {
      key: 'k1',
      kind: 'message',
      to: to as never,
      content: 'Hi',
      attachments: [],
      subject: null,
      references: [],
      context: {},
      attempt: 1,
    } as never);
    expect(outcome).toEqual({ ok: false, reason: 'ssrf_blocked', retryable: false, accountError: true });
    expect(connections).toBe(0);
  });
});
