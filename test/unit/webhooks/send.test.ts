import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../../shared/outbound/https';
import { startReceiver, type Receiver } from '../../support/https-receiver';

/** The real HTTPS client against a local receiver (trusted via NODE_EXTRA_CA_CERTS), no mocks. */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((req) => {
    const query = new URL(req.headers['x-test-path'] as string, 'https://x').searchParams;
    const status = Number(query.get('status') ?? 200);
    const headers: Record<string, string> = status === 302 ? { Location: 'https://example.com/' } : {};
    return status === 0 ? 'hang' : { status, headers, delayMs: Number(query.get('delay') ?? 0) };
  });
});
afterAll(() => receiver?.stop());

const post = (url: string, status: number, allowLoopback = true, timeoutMs?: number, delayMs = 0) =>
  postWebhook(
    url,
    '{"a":1}',
    { 'Content-Type': 'application/json', 'x-test-path': `/?status=${status}&delay=${delayMs}` },
    { allowLoopback, timeoutMs },
  );

describe('sending one attempt', () => {
  it('reports a 2xx as success with its latency, and sends the body bytes unchanged', async () => {
    const { outcome, latency } = await post(receiver.url, 204, true, undefined, 250);
    expect(outcome).toEqual({ kind: 'success', httpStatus: 204 });
    // The receiver answers 250 ms after reading the body: the latency covers that wait and is in whole ms.
    expect(latency).toBeGreaterThanOrEqual(250);
    expect(latency).toBeLessThan(10_000);
    expect(Number.isInteger(latency)).toBe(true);
    expect(receiver.received.at(-1)!.body).toBe('{"a":1}');
  });

  it('does not follow a redirect', async () => {
    const before = receiver.received.length;
    expect((await post(receiver.url, 302)).outcome).toMatchObject({ kind: 'retry', failureReason: 'redirect_302', httpStatus: 302 });
    expect(receiver.received.length).toBe(before + 1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { outcome, latency } = await post(receiver.url, 0, true, 300);
    expect(outcome).toEqual({ kind: 'retry', failureReason: 'timeout' });
    expect(latency).toBeGreaterThanOrEqual(290);
  });

  it('refuses loopback at delivery time, literally and through DNS, unless allowed', async () => {
    expect((await post(receiver.url, 200, false)).outcome).toMatchObject({ failureReason: 'ssrf_blocked' });
    const viaDns = receiver.url.replace('127.0.0.1', 'localhost');
    expect((await post(viaDns, 200, false)).outcome).toMatchObject({ failureReason: 'ssrf_blocked' });
  });

  it('names DNS, refused-connection and TLS failures', async () => {
    expect((await post('https://no-such-host.invalid/hook', 200)).outcome).toMatchObject({ failureReason: 'dns_error' });
    const plain = createServer((_req, res) => res.end('not tls'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const { port } = plain.address() as { port: number };
    expect((await post(`https://127.0.0.1:${port}/`, 200)).outcome).toMatchObject({ failureReason: 'tls_error' });
    await new Promise((r) => plain.close(r));
    expect((await post(`https://127.0.0.1:${port}/`, 200)).outcome).toMatchObject({ failureReason: 'connection_refused' });
  });
});
