import { describe, expect, it } from 'vitest';
import { matchPath, resolve } from '../../../shared/http/route-match';

const routes = [
  { method: 'GET', path: '/api/v1/integrations/webhooks' },
  { method: 'POST', path: '/api/v1/integrations/webhooks' },
  { method: 'GET', path: '/api/v1/integrations/webhooks/{id}' },
  { method: 'PATCH', path: '/api/v1/integrations/webhooks/{id}' },
  { method: 'GET', path: '/api/v1/integrations/webhooks/event-types' },
  { method: 'POST', path: '/api/v1/integrations/webhooks/{id}/retry/{deliveryId}' },
];

describe('route matching', () => {
  it('extracts path parameters', () => {
    expect(matchPath('/a/{id}/retry/{deliveryId}', '/a/1/retry/2')).toEqual({ id: '1', deliveryId: '2' });
    expect(matchPath('/a/{id}', '/a/1/extra')).toBeUndefined();
  });

  it('prefers the route with more literal segments, as API Gateway does', () => {
    expect(resolve(routes, 'GET', '/api/v1/integrations/webhooks/event-types').match?.route.path).toBe(
      '/api/v1/integrations/webhooks/event-types',
    );
    expect(resolve(routes, 'GET', '/api/v1/integrations/webhooks/abc').match?.params).toEqual({ id: 'abc' });
  });

  it('lists the allowed methods of a known path when the method does not match', () => {
    const { match, allowedMethods } = resolve(routes, 'DELETE', '/api/v1/integrations/webhooks');
    expect(match).toBeUndefined();
    expect(allowedMethods.sort()).toEqual(['GET', 'POST']);
  });

  it('knows no methods for an unknown path', () => {
    expect(resolve(routes, 'GET', '/api/v1/nothing').allowedMethods).toEqual([]);
  });

  it('does not crash on malformed percent-encoding', () => {
    expect(resolve(routes, 'GET', '/api/v1/integrations/webhooks/%E0%A4%A').match).toBeUndefined();
  });
});
