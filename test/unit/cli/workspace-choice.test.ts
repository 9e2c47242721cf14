import { describe, expect, it } from 'vitest';
import { chooseWorkspace, type WorkspaceCandidate } from '../../../packages/cli/workspace-choice';

const demo: WorkspaceCandidate = { id: 'a'.repeat(24), name: 'Demo workspace', demo: true, testTokens: 1 };
const acme: WorkspaceCandidate = { id: 'b'.repeat(24), name: 'Acme Support', demo: false, testTokens: 0 };
const beta: WorkspaceCandidate = { id: 'c'.repeat(24), name: 'Beta', demo: false, testTokens: 2 };

describe('the workspace a CLI command means without --workspace', () => {
  it('is the one named, or the only one', () => {
    expect(chooseWorkspace([demo, acme], acme.id)).toEqual({ workspaceId: acme.id });
    expect(chooseWorkspace([acme])).toEqual({ workspaceId: acme.id });
    expect(() => chooseWorkspace([acme], demo.id)).toThrow(`No such workspace: ${demo.id}`);
  });

  it('is the demo workspace after `workspace create` made a second one (the README order), and says why', () => {
    expect(chooseWorkspace([demo, acme])).toEqual({
      workspaceId: demo.id,
      why: expect.stringContaining('"Demo workspace", the demo workspace'),
    });
  });

  it('is the only one with a test token once the demo token is revoked', () => {
    expect(chooseWorkspace([{ ...demo, demo: false, testTokens: 0 }, acme, beta])).toEqual({
      workspaceId: beta.id,
      why: '"Beta", the only one with a test token',
    });
  });

  it('asks, listing each by id and name, when nothing tells them apart', () => {
    expect(() => chooseWorkspace([acme, beta, { ...beta, id: 'd'.repeat(24), name: 'Gamma' }])).toThrow(
      `There are 3 workspaces; say which with --workspace <id>, e.g. npx parley listen --workspace ${acme.id}\n  ${acme.id}  Acme Support\n  ${beta.id}  Beta (2 test tokens)\n  ${'d'.repeat(24)}  Gamma (2 test tokens)`,
    );
    expect(() => chooseWorkspace([])).toThrow('There is no workspace yet');
  });
});
