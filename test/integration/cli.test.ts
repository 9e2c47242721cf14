import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { cliFor } from '../support/cli';
import { startTestStack } from '../support/stack';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

const { targetEnv, parley, json } = cliFor(() => stack);

describe('the parley CLI', () => {
  it('creates a workspace and a token that works once, shows only its prefix afterwards, and revokes it', async () => {
    const { workspace } = json('workspace', 'create', '--name', 'Acme Support');
    expect(workspace._id).toMatch(/^[0-9a-f]{24}$/);

    const created = parley('token', 'create', '--workspace', workspace._id, '--scopes', 'inbox:read,webhooks:read', '--name', 'CI bot');
    expect(created.code).toBe(0);
    const token = /sk_live_[0-9A-Za-z]{48}/.exec(created.stdout)?.[0];
    expect(token).toBeDefined();
    expect(created.stdout).toMatch(/shown only this once/);

    const api = client(stack.baseUrl, { token });
    const me = await api.get('/api/v1/auth/token');
    expect(me.status).toBe(200);
    expect(me.body.data.token).toMatchObject({ name: 'CI bot', scopes: ['inbox:read', 'webhooks:read'], workspaceIds: [workspace._id] });

    const listed = parley('token', 'list', '--workspace', workspace._id);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(token!.slice(0, 16));
    expect(listed.stdout).not.toContain(token!.slice(16));

    const revoked = parley('token', 'revoke', me.body.data.token._id);
    expect(revoked.code).toBe(0);
    expect((await api.get('/api/v1/auth/token')).status).toBe(401);
    expect(parley('token', 'revoke', me.body.data.token._id)).toMatchObject({ code: 1, stderr: 'error: Token is already revoked\n' });
  });

  it('binds one token to several workspaces and marks sandbox tokens with sk_test_', () => {
    const a = json('workspace', 'create', '--name', 'A').workspace._id;
    const b = json('workspace', 'create', '--name', 'B').workspace._id;
    const { token } = json(
      'token',
      'create',
      '--workspace',
      a,
      '--workspace',
      b,
      '--scopes',
      'admin:all',
      '--name',
      'multi',
      '--test',
      '--expires',
      '2099-01-01',
    );
    expect(token.token).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
    expect(token).toMatchObject({ workspaceIds: [a, b], expiresAt: '2099-01-01T00:00:00.000Z', environment: 'test', livemode: false });
    expect(token).not.toHaveProperty('hash');
    expect(json('workspace', 'list').workspaces.map((w: { _id: string }) => w._id)).toEqual(expect.arrayContaining([a, b]));
  });

  it("prints with --json what the API's data holds for the same resources", async () => {
    const { workspace } = json('workspace', 'create', '--name', 'Same Shapes');
    const created = json('token', 'create', '--workspace', workspace._id, '--scopes', 'admin:all', '--name', 'admin', '--test');
    const api = client(stack.baseUrl, { token: created.token.token, workspaceId: workspace._id });
    const viaApi = await api.post('/api/v1/auth/tokens', { name: 'via api', scopes: ['tags:read'] });
    expect(viaApi.status).toBe(201);
    // The same view as POST /auth/tokens: the record's fields, status, livemode and the secret, once.
    expect(Object.keys(created.token).sort()).toEqual(Object.keys(viaApi.body.data.token).sort());
    expect(created.token.prefix).toBe(created.token.token.slice(0, 16));

    const revoked = json('token', 'revoke', viaApi.body.data.token._id);
    expect(revoked.token).toMatchObject({ _id: viaApi.body.data.token._id, status: 'revoked', revokedAt: expect.any(String) });
    const listed = await api.get('/api/v1/auth/tokens');
    expect(json('token', 'list', '--workspace', workspace._id)).toEqual(listed.body.data);
    expect(listed.body.data.tokens.find((t: { _id: string }) => t._id === revoked.token._id)).toEqual(revoked.token);

    const renamed = json('workspace', 'rename', workspace._id, '--name', 'Same Shapes Renamed');
    expect(renamed).toEqual((await api.get('/api/v1/workspace')).body.data);

    const members = (await api.get('/api/v1/workspace/members')).body.data;
    const cliMembers = json('member', 'list', '--workspace', workspace._id, '--test');
    expect(cliMembers.members).toEqual(members.members);
    expect(Object.keys(cliMembers.pagination).sort()).toEqual(Object.keys(members.pagination).sort());
    expect(cliMembers.pagination).toMatchObject({ total: members.pagination.total, page: 1, hasMore: false, nextCursor: null });

    const mine = (await api.get('/api/v1/auth/workspaces')).body.data;
    const all = json('workspace', 'list');
    expect(Object.keys(all.pagination).sort()).toEqual(Object.keys(mine.pagination).sort());
    expect(all.pagination).toMatchObject({ total: all.workspaces.length, hasMore: false });
    const { livemode: _mode, ...sameWorkspace } = mine.workspaces[0];
    expect(all.workspaces.find((w: { _id: string }) => w._id === workspace._id)).toEqual(sameWorkspace);
  });

  it.each([
    [['token', 'create', '--workspace', '0'.repeat(24), '--scopes', 'inbox:read', '--name', 'x'], /No such workspace/],
    [['token', 'create', '--workspace', 'nope', '--scopes', 'inbox:read', '--name', 'x'], /workspaceIds\[0\]: Must be a 24-character hex/],
    [['token', 'create', '--workspace', '0'.repeat(24), '--scopes', 'inbox:read,everything', '--name', 'x'], /scopes\[1\]: Unknown scope/],
    [
      ['token', 'create', '--workspace', '0'.repeat(24), '--scopes', 'inbox:read', '--name', 'x', '--expires', '2001-01-01'],
      /expiresAt: Must be in the future/,
    ],
    [['token', 'list', '--workspace', 'nope'], /--workspace: Must be a 24-character hex/],
    [['token', 'revoke', '0'.repeat(24)], /Token not found/],
    [['workspace', 'create', '--name', '   '], /--name: Required/],
  ])('refuses bad input %j with a clear message and a non-zero exit', (args, message) => {
    const res = parley(...args);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
  });

  it('reports errors as JSON on stderr with --json', () => {
    const res = parley('token', 'revoke', '0'.repeat(24), '--json');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr)).toEqual({ error: { message: 'Token not found' } });
  });

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['workspace', 'list', '--colour'], /unknown option '--colour'/],
    [['token', 'revoke'], /missing required argument 'tokenId'/],
    [['workspace', 'create'], /required option '--name <text>' not specified/],
    [[], /unknown option '--json'/],
  ])('reports the usage error %j as JSON on stderr with --json, and nothing else', (args, message) => {
    const res = parley(...args, '--json');
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr)).toEqual({ error: { message: expect.stringMatching(message) } });
  });

  it('ships an executable `parley` bin, linked where `npx parley` finds it, whose --json output is JSON alone', () => {
    const bin = join('packages', 'cli', JSON.parse(readFileSync('packages/cli/package.json', 'utf8')).bin.parley as string);
    expect(spawnSync('git', ['ls-files', '--stage', bin], { encoding: 'utf8' }).stdout).toMatch(/^100755 /);
    // npm links each workspace's bin into the root's node_modules/.bin, where `npx parley` looks first.
    const linked = join('node_modules', '.bin', 'parley');
    expect(realpathSync(linked)).toBe(resolve(bin));
    const res = spawnSync(linked, ['workspace', 'list', '--json'], { encoding: 'utf8', env: targetEnv(), timeout: 30_000 });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      workspaces: expect.any(Array),
      pagination: expect.objectContaining({ total: expect.any(Number) }),
    });
  });
});
