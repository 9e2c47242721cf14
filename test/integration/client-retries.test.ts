import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createParleyClient,
  ParleyConnectionError,
  ParleyInvalidRequestError,
  ParleyRateLimitError,
  ParleyServerError,
  ParleyTimeoutError,
  type ParleyClientOptions,
} from '../../packages/client/src/index';

/** What the scripted server answers next; its body is the contract's error wrapper unless the status is 2xx. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  details?: unknown;
  delayMs?: number;
}

/** A real HTTP server on 127.0.0.1 answering from a script, one answer per request, recording each request. */
let answers: Answer[] = [];
const seen: { at: number; method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    seen.push({ at: Date.now(), method: req.method!, url: req.url!, headers: req.headers, body });
    const a = answers.shift() ?? { status: 200 };
    const payload =
      a.status < 400
        ? { success: true, data: { tag: { _id: 'a'.repeat(24), name: 'vip' } } }
        : {
            success: false,
            error: {
              code: a.status === 429 ? 'TOO_MANY_REQUESTS' : a.status === 422 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR',
              message: `m${a.status}`,
              details: a.details,
            },
          };
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-request-id': 'req-1', ...a.headers }).end(JSON.stringify(payload));
    }, a.delayMs ?? 0);
  });
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  seen.length = 0;
  answers = [];
});

const WS = 'a'.repeat(24);
const client = (opts: Partial<ParleyClientOptions> = {}) =>
  createParleyClient({ baseUrl, token: 'sk_test_x', workspaceId: WS, baseDelayMs: 50, ...opts });
const caught = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('no error thrown'),
    (e: unknown) => e,
  );

describe("the client's retries, against a real HTTP server", () => {
  it('retries a 429 after its Retry-After, with the same generated Idempotency-Key, token, workspace and body', async () => {
    answers = [{ status: 429, headers: { 'Retry-After': '1' } }, { status: 201 }];
    const res = await client().post('/tags', { body: { name: 'vip' } });
    expect(res.data).toEqual({ tag: { _id: 'a'.repeat(24), name: 'vip' } });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^parley-client-[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    for (const s of seen) {
      expect(s).toMatchObject({ method: 'POST', url: '/api/v1/tags', body: JSON.stringify({ name: 'vip' }) });
      expect(s.headers).toMatchObject({ authorization: 'Bearer sk_test_x', 'x-workspace-id': WS });
    }
  });

  it('fails at once with a typed rate-limit error when Retry-After exceeds the cap, instead of blocking', async () => {
    answers = [{ status: 429, headers: { 'Retry-After': '157' } }];
    const started = Date.now();
    const error = await caught(client().get('/tags'));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ParleyRateLimitError);
    expect(error).toMatchObject({
      name: 'ParleyRateLimitError',
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'm429',
      retryAfterMs: 157_000,
      requestId: 'req-1',
    });
    expect(seen).toHaveLength(1);
  });

  it("keeps the caller's Idempotency-Key on every retry of a PATCH and throws a server error once the retries are spent", async () => {
    answers = [{ status: 503 }, { status: 500 }, { status: 502 }];
    const error = await caught(
      client().patch('/tags/{id}', { params: { path: { id: 'b'.repeat(24) } }, body: { name: 'x' }, idempotencyKey: 'mine-1' }),
    );
    expect(error).toBeInstanceOf(ParleyServerError);
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
    expect(seen.map((s) => [s.method, s.headers['idempotency-key']])).toEqual([
      ['PATCH', 'mine-1'],
      ['PATCH', 'mine-1'],
      ['PATCH', 'mine-1'],
    ]);
  });

  it('never retries a 4xx, gives its field errors typed, and sends no Idempotency-Key on a GET', async () => {
    answers = [{ status: 422, details: { errors: [{ path: 'limit', message: 'Too big' }] } }];
    const error = await caught(client().get('/tags', { params: { query: { limit: 500 } } }));
    expect(error).toBeInstanceOf(ParleyInvalidRequestError);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', fieldErrors: [{ path: 'limit', message: 'Too big' }] });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/v1/tags?limit=500');
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it("abandons an attempt after the request's timeout, retries it with the same key, then throws a timeout error", async () => {
    answers = [
      { status: 201, delayMs: 2000 },
      { status: 201, delayMs: 2000 },
    ];
    const started = Date.now();
    const error = await caught(client().post('/tags', { body: { name: 'slow' }, timeoutMs: 200, maxRetries: 1 }));
    expect(error).toBeInstanceOf(ParleyTimeoutError);
    expect(error).toMatchObject({ name: 'ParleyTimeoutError', message: 'No answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it("sends a request in the workspace it names, and the client's default otherwise", async () => {
    const other = 'c'.repeat(24);
    await client().get('/tags', { workspaceId: other });
    await client().get('/tags');
    expect(seen.map((s) => s.headers['x-workspace-id'])).toEqual([other, WS]);
  });

  it('throws a connection error when nothing listens, after its retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await caught(client({ baseUrl: `http://127.0.0.1:${port}` }).get('/tags'));
    expect(error).toBeInstanceOf(ParleyConnectionError);
    expect(error).not.toBeInstanceOf(ParleyTimeoutError);
  });
});
