import { wholeList } from '../../../shared/http/pagination';
import { route } from '../../../shared/http/route';
import { tokenWorkspace } from '../../../shared/views/auth';
import { listOf } from '../../../shared/views/common';
import { tokenWorkspaces } from '../../../shared/auth/tokens';

export const handler = route({ scope: null, workspace: false, response: listOf('workspaces', tokenWorkspace) }, async ({ token }) => {
  const workspaces = await tokenWorkspaces(token);
  return { workspaces, pagination: wholeList(workspaces.length) };
});
