import { AppError } from '../domain/errors';
import { tenantOf } from '../domain/auth/tenant';
import type { Member } from '../domain/auth/member';
import type { Workspace } from '../domain/auth/workspace';
import { createWorkspace, getWorkspaces, listWorkspaces } from '../data/workspaces';
import { addMember } from './members';
import { renameWorkspace } from './settings';
import type { Unit } from '../data/unit';

/*
 * What the operator does with workspaces: the `parley` CLI, acting with the deployment's own credentials
 * instead of an API token, so bound by no token's workspaces or scopes.
 */

/** Refuses unless every id is a workspace, naming each one that is not. */
export const requireWorkspaces = async (ids: readonly string[]): Promise<void> => {
  const found = new Set((await getWorkspaces(ids)).map((w) => w._id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new AppError('NOT_FOUND', `No such workspace: ${missing.join(', ')}`, { workspaceIds: missing });
};

/**
 * A new workspace and, given an email, its owner: an active member of each mode (live and test keep their own
 * members), the one of the live mode answered.
 */
export const createWorkspaceWithOwner = async (
  unit: Unit,
  name: string,
  ownerEmail: string | undefined,
  now: Date,
): Promise<{ workspace: Workspace; owner?: Member }> => {
  const workspace = await createWorkspace(unit, name, now);
  if (ownerEmail === undefined) return { workspace };
  const [owner] = await Promise.all(
    [true, false].map((livemode) =>
      addMember(unit, tenantOf(workspace._id, livemode), { email: ownerEmail, role: 'owner' }, now, 'active'),
    ),
  );
  return { workspace, owner };
};

export const allWorkspaces = (): Promise<Workspace[]> => listWorkspaces();

export const renameWorkspaceAsOperator = (unit: Unit, id: string, name: string, now: Date): Promise<Workspace> =>
  renameWorkspace(unit, id, name, now);
