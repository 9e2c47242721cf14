import type { HttpRoute } from './types';

export const authRoutes: HttpRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/auth/workspaces',
    handler: 'functions/http/auth/list-workspaces.ts',
    access: { table: 'read' },
    summary: 'Workspaces the calling token can access, each with the mode the token sees it in (`livemode`)',
  },
  {
    method: 'GET',
    path: '/api/v1/auth/token',
    handler: 'functions/http/auth/get-token.ts',
    access: { table: 'read' },
    summary: "The calling token's name, prefix, scopes, expiry and mode (`livemode`)",
  },
];
