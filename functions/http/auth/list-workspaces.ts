import { route } from '../../../shared/http/route';
import { getWorkspaces } from '../../../shared/data/workspaces';

export const handler = route({ scope: null, workspace: false }, async ({ token }) => {
  const workspaces = await getWorkspaces(token.workspaceIds);
  return { workspaces, pagination: { total: workspaces.length, page: 1, limit: workspaces.length, pages: 1, hasMore: false } };
});
