import { wholeList } from '../../../shared/http/pagination';
import { route } from '../../../shared/http/route';
import { tokenWorkspace } from '../../../shared/views/auth';
import { listOf } from '../../../shared/views/common';
import { getWorkspaces } from '../../../shared/data/workspaces';
import { livemode } from '../../../shared/domain/auth/token';

export const handler = route({ scope: null, workspace: false, response: listOf('workspaces', tokenWorkspace) }, async ({ token }) => {
  // The token sees each workspace in its own mode only.
  const workspaces = (await getWorkspaces(token.workspaceIds)).map((w) => ({ ...w, livemode: livemode(token) }));
  return { workspaces, pagination: wholeList(workspaces.length) };
});
