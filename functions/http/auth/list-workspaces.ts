import { route } from '../../../shared/http/route';
import { getWorkspaces } from '../../../shared/data/workspaces';
import { livemode } from '../../../shared/domain/auth/token';

export const handler = route({ scope: null, workspace: false }, async ({ token }) => {
  // The token sees each workspace in its own mode only.
  const workspaces = (await getWorkspaces(token.workspaceIds)).map((w) => ({ ...w, livemode: livemode(token) }));
  return { workspaces, pagination: { total: workspaces.length, page: 1, limit: workspaces.length, pages: 1, hasMore: false } };
});
