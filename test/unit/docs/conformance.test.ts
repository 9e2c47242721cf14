import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../infra/docs/document';
import { conformance } from '../../support/conformance';

const document = await openApiDocument();
const json = 'application/json; charset=utf-8';
const rate = { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': '1' };

describe('the response-conformance check', () => {
  it('accepts answers as the document lists them', () => {
    expect(
      conformance(document, 'GET', '/api/v1/tags', { status: 200, headers: { 'content-type': json, 'x-request-id': 'r', ...rate } }),
    ).toEqual([]);
    expect(
      conformance(document, 'GET', '/api/v1/tags', { status: 401, headers: new Headers({ 'content-type': json, 'x-request-id': 'r' }) }),
    ).toEqual([]);
    const address429 = { 'content-type': json, 'x-request-id': 'r', 'retry-after': '60' };
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 429, headers: address429 })).toEqual([]);
    const ics = {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'attachment; filename="b.ics"',
      'x-request-id': 'r',
      ...rate,
    };
    expect(conformance(document, 'GET', '/api/v1/scheduling/bookings/{id}/ics', { status: 200, headers: ics })).toEqual([]);
    expect(
      conformance(document, 'GET', '/api/v1/openapi.json', { status: 200, headers: { 'content-type': json, 'x-request-id': 'r' } }),
    ).toEqual([]);
  });

  it('fails a deliberately wrong answer: an undocumented status, header or content type, or a required header missing', () => {
    const ok = { 'content-type': json, 'x-request-id': 'r', ...rate };
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 418, headers: ok })[0]).toMatch(/status 418 is not documented/);
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 401, headers: ok })).toEqual([
      '401 carries X-RateLimit-Limit, which the document does not list for it',
      '401 carries X-RateLimit-Remaining, which the document does not list for it',
      '401 carries X-RateLimit-Reset, which the document does not list for it',
    ]);
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 200, headers: { ...ok, 'idempotent-replayed': 'true' } })).toEqual([
      '200 carries Idempotent-Replayed, which the document does not list for it',
    ]);
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 200, headers: { 'content-type': json, ...rate } })).toEqual([
      '200 lacks X-Request-Id, which the document requires',
    ]);
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 429, headers: { 'content-type': json, 'x-request-id': 'r' } })).toEqual([
      '429 lacks Retry-After, which the document requires',
    ]);
    expect(conformance(document, 'GET', '/api/v1/scheduling/bookings/{id}/ics', { status: 200, headers: ok })[0]).toMatch(
      /content type application\/json, the document lists text\/calendar/,
    );
    expect(conformance(document, 'GET', '/api/v1/tags', { status: 200, headers: { ...ok, 'content-type': 'text/html' } })[0]).toMatch(
      /content type text\/html/,
    );
    expect(conformance(document, 'GET', '/api/v1/nowhere', { status: 200, headers: ok })).toEqual([
      'GET /api/v1/nowhere is not in the document',
    ]);
  });
});
