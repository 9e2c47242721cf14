import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client, type Client } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';

/** Its own file and stack: the local-only loopback setting is OFF here, as it always is in AWS. */
const HOOKS = '/api/v1/integrations/webhooks';
let stack: LocalStack;
let api: Client;

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
  api = client(stack.baseUrl, await createTenant());
});
afterAll(() => stack?.stop());

describe('SSRF-safe targets with the local-only setting off', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://127.1.2.3:8443/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.0.0.5/hook',
    'https://172.16.3.4/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00:ec2::254]/hook',
    'https://0.0.0.0/hook',
    'https://localhost/hook',
  ])('rejects %s with 422 on url', async (url) => {
    const res = await api.post(HOOKS, { url, events: ['*'] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: 'url', message: expect.any(String) }] } });
  });

  it('rejects plain http and other schemes with 422 on url', async () => {
    for (const url of ['http://example.com/hook', 'ftp://example.com/hook', 'not a url']) {
      const res = await api.post(HOOKS, { url, events: ['*'] });
      expect(res.status).toBe(422);
      expect(res.body.error.details.errors[0].path).toBe('url');
    }
  });

  it('rejects a PATCH that moves a subscription onto a private address', async () => {
    const res = await api.patch(`${HOOKS}/${'0'.repeat(24)}`, { url: 'https://10.1.1.1/hook' });
    expect(res.status).toBe(422);
  });
});
