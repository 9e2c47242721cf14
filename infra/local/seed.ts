import { listWorkspaces, createWorkspace } from '../../shared/data/workspaces';
import { createToken } from '../../shared/auth/tokens';
import { tenantOf } from '../../shared/domain/auth/tenant';
import { seedCrm } from './seed-crm';
import { seedInbox } from './seed-inbox';
import { seedBookings, seedMembers } from './seed-team';
import { direct } from '../../shared/data/unit';

export interface Seeded {
  workspaceId: string;
  tokens: { live: string; test: string };
}

/** The admin tokens the first start prints: the CLI knows the demo workspace by its test one. */
export const DEMO_TOKEN_NAMES = {
  live: 'Demo admin token (live)',
  test: 'Demo admin token (test)',
} as const;

/**
 * On the very first start only: a demo workspace whose live data and test-mode sandbox both hold a team of
 * members, demo conversations, a CRM pipeline with leads and a few bookings, and an admin token for each
 * mode, so a new user can call the API at once.
 */
export const seedOnFirstStart = async (): Promise<Seeded | undefined> => {
  if ((await listWorkspaces()).length > 0) return undefined;
  const workspace = await createWorkspace(direct, 'Demo workspace');
  const seedMode = async (livemode: boolean) => {
    const { token } = await createToken(direct, {
      name: DEMO_TOKEN_NAMES[livemode ? 'live' : 'test'],
      scopes: ['admin:all'],
      workspaceIds: [workspace._id],
      livemode,
    });
    const tenant = tenantOf(workspace._id, livemode);
    const { agentId } = await seedMembers(tenant);
    const { customerId } = await seedInbox(tenant, agentId);
    await seedCrm(tenant, customerId, agentId);
    await seedBookings(tenant, agentId, customerId);
    return token;
  };
  return { workspaceId: workspace._id, tokens: { live: await seedMode(true), test: await seedMode(false) } };
};
