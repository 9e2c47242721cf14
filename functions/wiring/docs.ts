import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const route = areaRoutes('docs');

export const docsWiring = {
  routes: [
    route(
      'GET',
      '/api/v1/openapi.json',
      'get-openapi',
      'This API described as OpenAPI 3.1 (public: no token, no workspace, no rate limit)',
      { public: true },
    ),
  ],
} satisfies AreaWiring;
