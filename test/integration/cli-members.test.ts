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

const { parley, json } = cliFor(() => stack);

describe('the parley CLI: members', () => {
  // Ten `parley` processes one after another, each starting through tsx (about 5 s on a loaded 2-core machine): a hang bound, not a speed claim.
  it('creates a workspace with an active owner in both modes, invites, lists and changes roles; the last owner stays', async () => {
    const { workspace, owner } = json('workspace', 'create', '--name', 'Acme', '--owner-email', 'Boss@Example.com');
    expect(owner).toMatchObject({ email: 'boss@example.com', role: 'owner', status: 'active' });
    const { member } = json(
      'member',
      'invite',
      '--workspace',
      workspace._id,
      '--email',
      'ada@example.com',
      '--name',
      'Ada',
      '--role',
      'manager',
    );
    expect(member).toMatchObject({ role: 'manager', status: 'invited' });
    expect(json('member', 'list', '--workspace', workspace._id).members.map((m: { email: string }) => m.email)).toEqual([
      'boss@example.com',
      'ada@example.com',
    ]);
    expect(json('member', 'list', '--workspace', workspace._id, '--status', 'active').members).toHaveLength(1);
    expect(json('member', 'role', member._id, '--workspace', workspace._id, '--role', 'agent').member.role).toBe('agent');
    expect(parley('member', 'role', owner._id, '--workspace', workspace._id, '--role', 'admin')).toMatchObject({
      code: 1,
      stderr: 'error: The workspace must keep at least one active owner\n',
    });
    expect(parley('member', 'invite', '--workspace', workspace._id, '--email', 'nope', '--json').code).toBe(1);
    expect(parley('member', 'role', member._id, '--workspace', workspace._id, '--role', 'king').code).toBe(1);

    // The test mode has its own owner (and not the live invitation); a test token sees it through the API.
    const test = json('member', 'list', '--workspace', workspace._id, '--test').members;
    expect(test.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(['boss@example.com:owner']);
    const created = json('token', 'create', '--workspace', workspace._id, '--scopes', 'admin:all', '--name', 't', '--test');
    const api = client(stack.baseUrl, { token: created.token.token, workspaceId: workspace._id });
    expect((await api.get('/api/v1/workspace/members')).body.data.members.map((m: { _id: string }) => m._id)).toEqual([test[0]._id]);
  }, 180_000);
});
