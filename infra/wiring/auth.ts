import type { HttpRoute } from './types';

export const authRoutes: HttpRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/auth/workspaces',
    handler: 'functions/http/auth/list-workspaces.ts',
    scope: null,
    access: { table: 'write' },
    summary: 'Workspaces the calling token can access',
  },
  {
    method: 'GET',
    path: '/api/v1/auth/token',
    handler: 'functions/http/auth/get-token.ts',
    scope: null,
    access: { table: 'write' },
    summary: "The calling token's name, prefix, scopes and expiry",
  },
];
