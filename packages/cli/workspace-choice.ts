import { CliError } from './target';

/** A local workspace as the CLI tells them apart when none is named. */
export interface WorkspaceCandidate {
  id: string;
  name: string;
  /** It holds the test token the first `npm start` printed, still active. */
  demo: boolean;
  /** Active test-mode tokens a person made (not the CLI's own short-lived ones). */
  testTokens: number;
}

/**
 * The workspace a command without `--workspace` means: the named one; else the only one there is; else the
 * demo workspace, whose test token the README has the user copy; else the only one with a test token of its
 * own. Otherwise it asks, listing each workspace by id and name. `why` says how it chose, when there was a choice.
 */
export const chooseWorkspace = (all: WorkspaceCandidate[], given?: string): { workspaceId: string; why?: string } => {
  if (given) {
    if (!all.some((w) => w.id === given)) throw new CliError(`No such workspace: ${given}`);
    return { workspaceId: given };
  }
  if (all.length === 0) throw new CliError('There is no workspace yet: create one with `npx parley workspace create --name <name>`');
  if (all.length === 1) return { workspaceId: all[0]!.id };
  const demo = all.filter((w) => w.demo);
  if (demo.length === 1)
    return { workspaceId: demo[0]!.id, why: `"${demo[0]!.name}", the demo workspace of the test token printed by the first npm start` };
  const tested = all.filter((w) => w.testTokens > 0);
  if (tested.length === 1) return { workspaceId: tested[0]!.id, why: `"${tested[0]!.name}", the only one with a test token` };
  throw new CliError(
    [
      `There are ${all.length} workspaces; say which with --workspace <id>, e.g. npx parley listen --workspace ${all[0]!.id}`,
      ...all.map((w) => `  ${w.id}  ${w.name}${w.testTokens ? ` (${w.testTokens} test ${w.testTokens === 1 ? 'token' : 'tokens'})` : ''}`),
    ].join('\n'),
  );
};
