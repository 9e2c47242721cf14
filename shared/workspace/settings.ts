import { NotFoundError } from '../domain/errors';
import type { Workspace } from '../domain/auth/workspace';
import { getWorkspace } from '../data/workspaces';

export { updateWorkspace } from '../data/workspaces';

export const requireWorkspace = async (id: string): Promise<Workspace> => {
  const workspace = await getWorkspace(id);
  if (!workspace) throw new NotFoundError('Workspace');
  return workspace;
};
