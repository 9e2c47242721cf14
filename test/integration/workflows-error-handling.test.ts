import { describe, expect, it } from 'vitest';
import { client } from '../support/api';
import { startReceiver } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { useWebhookStack, verifyDelivery } from '../support/webhooks';
import { call, createWorkflow, edge, finished, node, trigger } from '../support/workflows';

/**
 * The contract's error-handling nodes against real local HTTPS receivers. Timing tolerance: a retry
 * delay of b seconds is measured between the receiver's arrivals; it may come at most 100 ms early and up
 * to 3 s late (queue polling, the step's own writes, and a 2-core machine shared with other test runs at a
 * load of 8, where single steps were seen 2.5 s late). The lower bound is what proves each wait happened
 * and follows the formula (fixed 1,1,1 or linear 1,2,3 fail the 2 s and 4 s bounds; doubled delays fail
 * the upper one); the bench reports the actual spacing error.
 */
const ctx = useWebhookStack();
const EARLY_MS = 100;
const LATE_MS = 3000;

const gaps = (arrivals: number[]) => arrivals.slice(1).map((at, i) => at - arrivals[i]!);
const expectSpacing = (arrivals: number[], seconds: number[]) => {
  const actual = gaps(arrivals);
  expect(actual).toHaveLength(seconds.length);
  actual.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(seconds[i]! * 1000 - EARLY_MS);
    expect(gap).toBeLessThanOrEqual(seconds[i]! * 1000 + LATE_MS);
  });
};

const tenantApi = async () => client(ctx.stack.baseUrl, await createTenant());

describe('workflow error handling', () => {
  it('a Retry (max 2, fixed 1 s) inside a Try-Catch inside an On-Error makes exactly 3 attempts 1 s apart, then runs the catch body once with error.*', {
    timeout: 90_000,
  }, async () => {
    const failing = await startReceiver(() => ({ status: 503 }));
    const report = await startReceiver();
    try {
      const api = await tenantApi();
      const w = await createWorkflow(api, {
        nodes: [
          node('guard', 'on_error', { action: 'log' }),
          node('try', 'try_catch', { categorize: true }),
          node('again', 'retry', { maxAttempts: 2, backoff: 'fixed', baseDelaySeconds: 1 }),
          call('flaky', failing.url, { body: { n: 1 } }),
          call('report', report.url, {
            body: {
              message: '{{error.message}}',
              category: '{{error.category}}',
              nodeType: '{{error.nodeType}}',
              nodeId: '{{error.nodeId}}',
            },
          }),
        ],
        edges: [edge('guard', 'try', 'body'), edge('try', 'again', 'try'), edge('again', 'flaky', 'body'), edge('try', 'report', 'catch')],
      });
      const run = await trigger(api, w._id);
      const done = await finished(api, run._id);
      expect(done.status).toBe('completed');
      expect(failing.received).toHaveLength(3);
      expectSpacing(
        failing.received.map((r) => r.at),
        [1, 1],
      );
      expect(report.received).toHaveLength(1);
      expect(JSON.parse(report.received[0]!.body)).toEqual({
        message: 'HTTP 503 Service Unavailable',
        category: 'other',
        nodeType: 'http_request',
        nodeId: 'flaky',
      });
      expect(done.steps.map((s: any) => [s.nodeId, s.attempt, s.status, s.handledBy])).toEqual([
        ['flaky', 1, 'failed', 'again'],
        ['flaky', 2, 'failed', 'again'],
        ['flaky', 3, 'failed', 'try'],
        ['report', 1, 'succeeded', undefined],
      ]);
      expect(done.steps.map((s: any) => s.delayBeforeMs)).toEqual([0, 1000, 1000, 0]);
      expect(done.steps[0].error).toEqual({ message: 'HTTP 503 Service Unavailable', category: 'other' });
      // Each attempt is its own side effect: its idempotency key is executionId:nodeId:attempt.
      expect(failing.received.map((r) => r.headers['idempotency-key'])).toEqual([1, 2, 3].map((n) => `${run._id}:flaky:${n}`));
    } finally {
      await failing.stop();
      await report.stop();
    }
  });

  it('exponential backoff waits 1, 2 and 4 s', { timeout: 90_000 }, async () => {
    const failing = await startReceiver(() => ({ status: 500 }));
    try {
      const api = await tenantApi();
      const w = await createWorkflow(api, {
        nodes: [node('again', 'retry', { maxAttempts: 3, backoff: 'exponential', baseDelaySeconds: 1 }), call('flaky', failing.url)],
        edges: [edge('again', 'flaky', 'body')],
      });
      const done = await finished(api, (await trigger(api, w._id))._id);
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({ message: 'HTTP 500 Internal Server Error', nodeId: 'flaky', nodeType: 'http_request' });
      expect(failing.received).toHaveLength(4);
      expectSpacing(
        failing.received.map((r) => r.at),
        [1, 2, 4],
      );
    } finally {
      await failing.stop();
    }
  });

  it('a category-filtered Retry does not retry errors of other categories', { timeout: 60_000 }, async () => {
    const auth = await startReceiver(() => ({ status: 401 }));
    try {
      const api = await tenantApi();
      const w = await createWorkflow(api, {
        nodes: [
          node('again', 'retry', { maxAttempts: 3, backoff: 'fixed', baseDelaySeconds: 1, categories: ['network', 'rate_limit'] }),
          call('call', auth.url),
        ],
        edges: [edge('again', 'call', 'body')],
      });
      const done = await finished(api, (await trigger(api, w._id))._id);
      expect(done.status).toBe('failed');
      expect(auth.received).toHaveLength(1);
      expect(done.steps).toHaveLength(1);
      expect(done.steps[0].error).toEqual({ message: 'HTTP 401 Unauthorized', category: 'auth' });
    } finally {
      await auth.stop();
    }
  });

  const failingCatch = (action: string, extra: object = {}) => ({
    nodes: [
      node('guard', 'on_error', { action, ...extra }),
      node('try', 'try_catch'),
      node('boom', 'fail', { message: 'validation failed: order 42 is invalid' }),
      node('cleanup', 'fail', { message: 'cleanup failed after {{error.message}}' }),
      node('after', 'set_variable', { name: 'reached', value: 'yes' }),
    ],
    edges: [edge('guard', 'try', 'body'), edge('try', 'boom', 'try'), edge('try', 'cleanup', 'catch'), edge('guard', 'after')],
  });

  it('a failing catch body reaches On-Error: stop ends the execution failed', { timeout: 60_000 }, async () => {
    const api = await tenantApi();
    const done = await finished(api, (await trigger(api, (await createWorkflow(api, failingCatch('stop')))._id))._id);
    expect(done.status).toBe('failed');
    expect(done.steps.map((s: any) => [s.nodeId, s.status, s.handledBy])).toEqual([
      ['boom', 'failed', 'try'],
      ['cleanup', 'failed', 'guard'],
    ]);
    expect(done.error).toEqual({
      message: 'cleanup failed after validation failed: order 42 is invalid',
      category: 'validation',
      nodeId: 'cleanup',
      nodeType: 'fail',
    });
  });

  it('a failing catch body reaches On-Error: log ends the execution completed_with_errors and continues after it', {
    timeout: 60_000,
  }, async () => {
    const api = await tenantApi();
    const done = await finished(api, (await trigger(api, (await createWorkflow(api, failingCatch('log')))._id))._id);
    expect(done.status).toBe('completed_with_errors');
    expect(done.steps.map((s: any) => [s.nodeId, s.status, s.handledBy])).toEqual([
      ['boom', 'failed', 'try'],
      ['cleanup', 'failed', 'guard'],
      ['after', 'succeeded', undefined],
    ]);
  });

  it('notify posts a notification signed as webhooks are, with the workspace notification secret', { timeout: 60_000 }, async () => {
    const api = await tenantApi();
    const w = await createWorkflow(api, failingCatch('notify', { targets: [{ type: 'webhook', url: ctx.receiver.url }] }));
    const before = ctx.receiver.received.length;
    const done = await finished(api, (await trigger(api, w._id))._id);
    expect(done.status).toBe('completed_with_errors');
    expect(done.steps.map((s: any) => s.nodeId)).toEqual(['boom', 'cleanup', 'guard', 'after']);
    const [notification] = ctx.receiver.received.slice(before);
    const secret = (await api.get('/api/v1/workflows/notification-secret')).body.data.notificationSecret.secret;
    const body = await verifyDelivery(secret, notification!);
    expect(body).toEqual({
      workflowId: w._id,
      executionId: done._id,
      nodeId: 'cleanup',
      nodeType: 'fail',
      error: { message: expect.stringContaining('cleanup failed'), category: 'validation' },
    });
    expect(done.steps[2].output).toEqual({ action: 'notify', notified: [{ url: ctx.receiver.url, delivered: true }] });
  });
});
