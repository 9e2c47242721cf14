import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParleyClient } from '../../../shared/client/client';
import { retryAfterMs, retryDelayMs, DEFAULT_RETRY } from '../../../shared/client/retry';
import { verifyWebhook, WebhookVerificationError } from '../../../shared/client/webhooks';
import { deliveryHeaders } from '../../../shared/domain/webhooks/sign';

/** A real HTTP server answering from a script: each request takes the next answer. */
let answers: { status: number; headers?: Record<string, string> }[] = [];
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const a = answers.shift() ?? { status: 200 };
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.status < 400 ? JSON.stringify({ success: true, data: { tag: { _id: 'x' } } }) : JSON.stringify({ success: false, error: { code: 'X', message: 'm' } }));
  });
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (waits: number[]) =>
  createParleyClient({ baseUrl, token: 'sk_test_x', workspaceId: 'a'.repeat(24), sleep: async (ms) => void waits.push(ms) });

describe('the typed client', () => {
  it('sends the bearer token and workspace id, and retries a 429 after Retry-After with the same Idempotency-Key', async () => {
    seen.length = 0;
    answers = [{ status: 429, headers: { 'Retry-After': '7' } }, { status: 503 }, { status: 201 }];
    const waits: number[] = [];
    const res = await client(waits).POST('/api/v1/tags', { body: { name: 'vip' } });
    expect(res.response.status).toBe(201);
    expect(waits).toEqual([7000, DEFAULT_RETRY.baseDelayMs * 2]);
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^parley-client-/);
    expect(new Set(keys).size).toBe(1);
    for (const s of seen) {
      expect(s.headers.authorization).toBe('Bearer sk_test_x');
      expect(s.headers['x-workspace-id']).toBe('a'.repeat(24));
      expect(JSON.parse(s.body)).toEqual({ name: 'vip' });
    }
  });

  it('keeps the caller\'s own Idempotency-Key, gives up after the policy\'s attempts, and never retries a 4xx', async () => {
    seen.length = 0;
    answers = [{ status: 500 }, { status: 500 }, { status: 500 }];
    const last = await client([]).POST('/api/v1/tags', { body: { name: 'x' }, params: { header: { 'Idempotency-Key': 'mine' } } });
    expect(last.response.status).toBe(500);
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['mine', 'mine', 'mine']);
    seen.length = 0;
    answers = [{ status: 422 }];
    expect((await client([]).GET('/api/v1/tags', {})).response.status).toBe(422);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date, and caps every wait', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryDelayMs(DEFAULT_RETRY, 3, undefined)).toBe(2000);
    expect(retryDelayMs(DEFAULT_RETRY, 1, 3_600_000)).toBe(DEFAULT_RETRY.maxDelayMs);
  });
});

describe('webhook verification for receivers', () => {
  const secret = 'whsec-test-secret-0123456789';
  const body = JSON.stringify({ eventId: 'e1', eventType: 'webhook.ping', data: {} });
  const now = new Date('2026-01-01T00:00:00Z');
  const headers = deliveryHeaders(secret, body, { eventId: 'e1', eventType: 'webhook.ping', deliveryId: 'd1', attemptNumber: 1, timestamp: now.getTime() / 1000 });

  it('accepts a delivery signed as Parley signs it, from a Headers object or a plain record', () => {
    expect(verifyWebhook(secret, body, new Headers(headers), { now })).toMatchObject({ eventId: 'e1' });
    expect(verifyWebhook(secret, body, headers, { now: new Date(now.getTime() + 299_000) }).eventType).toBe('webhook.ping');
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    expect(() => verifyWebhook(secret, body.replace('e1', 'e2'), headers, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook('another-secret-0123456789', body, headers, { now })).toThrow(/No matching signature/);
    expect(() => verifyWebhook(secret, body, headers, { now: new Date(now.getTime() + 301_000) })).toThrow(/Timestamp/);
    expect(() => verifyWebhook(secret, body, {}, { now })).toThrow(/Missing/);
  });
});
