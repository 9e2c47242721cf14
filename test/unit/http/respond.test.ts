import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { respond } from '../../../shared/http/middleware/respond';
import { JsonText } from '../../../shared/http/json-text';
import { ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { VersionConflict } from '../../../shared/data/retry';
import { ConflictError, TooManyRequestsError, ValidationError } from '../../../shared/domain/errors';

const event = { requestContext: { requestId: 'req-1', http: { method: 'GET' } }, routeKey: 'GET /x' } as unknown as APIGatewayProxyEventV2;
const invoke = (fn: () => Promise<object>) => middy<APIGatewayProxyEventV2, any>().use(respond(201)).handler(fn)(event, {} as Context);

afterEach(() => vi.restoreAllMocks());

describe('the response wrapper', () => {
  it('wraps a success as {success:true,data} with the route status', async () => {
    const res = await invoke(async () => ({ thing: 1 }));
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ success: true, data: { thing: 1 } });
    expect(res.headers['X-Request-Id']).toBe('req-1');
  });

  it('sends a public document as itself, and one held as JSON text as that text, byte for byte', async () => {
    const unwrapped = (fn: () => Promise<object>) =>
      middy<APIGatewayProxyEventV2, any>()
        .use(respond(200, { wrap: false }))
        .handler(fn)(event, {} as Context);
    const text = '{"openapi":"3.1.0","info":{"title":"Parley →","version":"1"}}';
    const asText = await unwrapped(async () => new JsonText(text));
    expect(asText.body).toBe(text);
    expect(asText.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-1' });
    expect((await unwrapped(async () => JSON.parse(text))).body).toBe(text);
  });

  it('maps typed errors to their status and code, with details', async () => {
    const res = await invoke(async () => {
      throw new ValidationError([{ path: 'url', message: 'bad' }]);
    });
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'Validation failed: url: bad', details: { errors: [{ path: 'url', message: 'bad' }] } },
    });
  });

  it('answers a domain conflict with 409 CONFLICT', async () => {
    const res = await invoke(async () => {
      throw new ConflictError('taken', { field: 'name' });
    });
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body)).toEqual({ success: false, error: { code: 'CONFLICT', message: 'taken', details: { field: 'name' } } });
  });

  it('adds headers a typed error carries', async () => {
    const res = await invoke(async () => {
      throw new TooManyRequestsError(7, 'slow down');
    });
    expect(res.headers['Retry-After']).toBe('7');
  });

  it.each([
    ['a lost optimistic race', () => new VersionConflict()],
    [
      'a cancelled transaction that conflicted',
      () =>
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
        }),
    ],
    ['DynamoDB throttling', () => new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: {} })],
  ])('answers contention that outlasted the retries (%s) with 429 and Retry-After, never a 500', async (_, failure) => {
    const res = await invoke(async () => {
      throw failure();
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['Retry-After']).toBe('1');
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'TOO_MANY_REQUESTS', details: { retryAfter: 1 } } });
  });

  it('turns an unexpected error into INTERNAL_ERROR with the request id, no stack, logged once', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.env.LOG_LEVEL = 'info';
    const res = await invoke(async () => {
      throw new Error('database exploded at /srv/secret/path.ts:12');
    });
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { requestId: 'req-1' } },
    });
    expect(res.body).not.toContain('exploded');
    const logged = write.mock.calls.map(([line]) => String(line)).filter((l) => l.includes('unhandled error'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({
      level: 'ERROR',
      requestId: 'req-1',
      error: { message: expect.stringContaining('exploded') },
    });
  });
});
