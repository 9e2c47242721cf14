import { liveTenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { Missing } from '../domain/refusal';
import { patchWorkspace, type Workspace, type WorkspacePatch } from '../domain/auth/workspace';
import { buildEnvelope, diff } from '../events/envelope';
import { outboxItem } from '../data/outbox';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';
import { getWorkspace, workspaceSettingsUpdate } from '../data/workspaces';

export const requireWorkspace = async (id: string): Promise<Workspace> => {
  const workspace = await getWorkspace(id);
  if (!workspace) throw new NotFoundError('Workspace');
  return workspace;
};

const SETTINGS = ['name', 'timezone', 'locale', 'businessHours', 'storageQuotaBytes', 'retention'] as const;

/**
 * Changes the workspace's settings under the version read, with `auth.workspace.updated` (live, with
 * `changes`) in the same transaction. A patch that changes nothing is a no-op: no write, no event.
 */
export const updateWorkspace = (unit: Unit, id: string, patch: WorkspacePatch, now = new Date()): Promise<Workspace> =>
  retryOnConflict(async () => {
    const before = await getWorkspace(id);
    if (!before) throw new Missing('Workspace');
    const after = patchWorkspace(before, patch, now);
    const pick = (w: Workspace) => Object.fromEntries(SETTINGS.map((f) => [f, w[f]]));
    const changes = diff(pick(before), pick(after));
    if (!changes || Object.keys(changes).length === 0) return before;
    const event = buildEnvelope('auth.workspace.updated', liveTenant(id), { workspace: after }, { changes, now });
    await unit.commit([workspaceSettingsUpdate(before, after), outboxItem(event)], lostRace);
    return after;
  });

export const renameWorkspace = (unit: Unit, id: string, name: string, now = new Date()): Promise<Workspace> =>
  updateWorkspace(unit, id, { name }, now);
