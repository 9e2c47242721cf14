import { describe, expect, it } from 'vitest';
import { readable, storyOf } from '../../../infra/local/log-file';
import type { LogRecord } from '../../../shared/log';

const line = (message: string, fields: Record<string, unknown>): LogRecord => ({
  level: 'INFO',
  message,
  timestamp: '2026-01-01T10:00:00.000Z',
  ...fields,
});

const records = [
  line('request', { requestId: 'r1', method: 'POST', route: 'POST /api/v1/contacts/customers', status: 201, durationMs: 8 }),
  line('webhook fan-out', { requestId: 'r1', eventId: 'e1', deliveries: 1 }),
  line('webhook delivery attempt', { requestId: 'r1', eventId: 'e1', deliveryId: 'd1', attempt: 1 }),
  // Re-sent by the sweep: the request id was lost on the way, the event and delivery ids were not.
  line('webhook delivery attempt', { eventId: 'e1', deliveryId: 'd1', attempt: 2 }),
  line('request', { requestId: 'r2', method: 'GET', route: 'GET /api/v1/auth/workspaces', status: 200, durationMs: 3 }),
  line('webhook delivery attempt', { requestId: 'r3', eventId: 'e3', deliveryId: 'd3', attempt: 1 }),
];

describe('parley logs', () => {
  it('finds a request, the events it emitted and their deliveries, even an attempt that lost the request id', () => {
    expect(storyOf(records, 'requestId', 'r1')).toEqual(records.slice(0, 4));
  });

  it('finds an event and its deliveries, and a delivery alone', () => {
    expect(storyOf(records, 'eventId', 'e1')).toEqual(records.slice(1, 4));
    expect(storyOf(records, 'deliveryId', 'd3')).toEqual([records[5]]);
  });

  it('prints an access line readably: time, level, method, route, status, duration, then the rest', () => {
    expect(readable(records[4]!)).toBe('10:00:00.000 INFO  request GET /api/v1/auth/workspaces → 200 3 ms  requestId=r2');
  });
});
