import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../../shared/log';
import { withContext } from '../../../shared/observability/context';
import { metric } from '../../../shared/observability/metrics';

// As Lambda runs a function: its name set, logs at info. Config is read on first use, after this.
beforeAll(() => {
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'Parley-dev-Routes-GetCustomer';
  process.env.LOG_LEVEL = 'info';
  process.env.STAGE = 'dev';
});
afterEach(() => vi.restoreAllMocks());

const captured = () => {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  return () =>
    lines
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
};

describe('on Lambda', () => {
  it("a log line is JSON in Powertools' shape, carrying the context of the work in hand", () => {
    const lines = captured();
    withContext({ requestId: 'req-7', deliveryId: 'dlv-1' }, () => log.info('webhook delivery attempt', { status: 'success' }));
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'webhook delivery attempt',
        service: 'parley',
        requestId: 'req-7',
        deliveryId: 'dlv-1',
        status: 'success',
      }),
    ]);
  });

  it('a line whose fields are a function calls it only when the line is written (a debug line at info is not)', () => {
    const lines = captured();
    const fields = vi.fn(() => ({ sockets: ['a live'] }));
    log.debug('realtime push', fields);
    expect(fields).not.toHaveBeenCalled();
    log.info('realtime push', fields);
    expect(fields).toHaveBeenCalledTimes(1);
    expect(lines()).toEqual([expect.objectContaining({ level: 'INFO', message: 'realtime push', sockets: ['a live'] })]);
  });

  it('a metric is one embedded-metric-format line in the Parley namespace, with the service and stage dimensions', () => {
    const lines = captured();
    metric.request('GET /api/v1/contacts/customers/{id}', 404, 12.5);
    const [emf] = lines();
    expect(emf!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'Parley',
        Dimensions: [expect.arrayContaining(['service', 'stage', 'route', 'statusClass'])],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'RequestLatency', Unit: 'Milliseconds' },
        ],
      },
    ]);
    expect(emf).toMatchObject({
      service: 'parley',
      stage: 'dev',
      route: 'GET /api/v1/contacts/customers/{id}',
      statusClass: '4xx',
      Requests: 1,
      RequestLatency: 12.5,
    });
  });
});
