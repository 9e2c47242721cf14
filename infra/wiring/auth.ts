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
  {
    method: 'POST',
    path: '/api/v1/auth/tokens',
    handler: 'functions/http/auth/create-token.ts',
    access: { table: 'write' },
    summary: 'Create an API token (its value is returned once), never wider than the caller',
  },
  {
    method: 'GET',
    path: '/api/v1/auth/tokens',
    handler: 'functions/http/auth/list-tokens.ts',
    access: { table: 'read' },
    summary: "The workspace's API tokens in the caller's mode, without their values",
  },
  {
    method: 'DELETE',
    path: '/api/v1/auth/tokens/{id}',
    handler: 'functions/http/auth/revoke-token.ts',
    access: { table: 'write' },
    summary: 'Revoke an API token; its next request gets 401',
  },
];
