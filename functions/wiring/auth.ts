import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const route = areaRoutes('auth');

export const authWiring = {
  routes: [
    route(
      'GET',
      '/api/v1/auth/workspaces',
      'list-workspaces',
      'Workspaces the calling token can access, each with the mode the token sees it in (`livemode`)',
    ),
    route('GET', '/api/v1/auth/token', 'get-token', "The calling token's name, prefix, scopes, expiry and mode (`livemode`)"),
    route('POST', '/api/v1/auth/tokens', 'create-token', 'Create an API token (its value is returned once), never wider than the caller'),
    route('GET', '/api/v1/auth/tokens', 'list-tokens', "The workspace's API tokens in the caller's mode, without their values"),
    route('DELETE', '/api/v1/auth/tokens/{id}', 'revoke-token', 'Revoke an API token; its next request gets 401'),
  ],
} satisfies AreaWiring;
