import { listWorkspaces, createWorkspace } from '../../shared/data/workspaces';
import { createToken } from '../../shared/data/tokens';
import { seedInbox } from './seed-inbox';

export interface Seeded {
  workspaceId: string;
  token: string;
}

/** On the very first start only: a demo workspace and an admin token, so a new user can call the API at once. */
export const seedOnFirstStart = async (): Promise<Seeded | undefined> => {
  if ((await listWorkspaces()).length > 0) return undefined;
  const workspace = await createWorkspace('Demo workspace');
  const { token } = await createToken({
    name: 'Demo admin token',
    scopes: ['admin:all'],
    workspaceIds: [workspace._id],
    environment: 'test',
  });
  await seedInbox(workspace._id);
  return { workspaceId: workspace._id, token };
};
