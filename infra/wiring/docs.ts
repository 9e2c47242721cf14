import type { HttpRoute } from './types';

export const docsRoutes: HttpRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    handler: 'functions/http/docs/get-openapi.ts',
    access: { table: 'read' },
    summary: 'This API described as OpenAPI 3.1 (public: no token, no workspace, no rate limit)',
    public: true,
  },
];
