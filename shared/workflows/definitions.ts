import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from '../data/outbox';
import { getWorkflow, listVersions, workflowDeletion, workflowSave, workflowsPage, type StoredWorkflow } from '../data/workflows';
import type { Unit } from '../data/unit';
import type { PageRequest } from '../data/query';
import {
  applyUpdate,
  literalUrls,
  newWorkflow,
  nextRunAt,
  setActive,
  type CreateWorkflow,
  type UpdateWorkflow,
  type Workflow,
} from '../domain/workflows/definition';
import { lostRace, retryOnConflict } from '../data/retry';
import { Missing } from '../domain/refusal';
import { assertAllowedTarget } from '../outbound/https';
import type { Tenant } from '../domain/auth/tenant';

export const requireWorkflow = async (tenant: Tenant, id: string): Promise<StoredWorkflow> => {
  const found = await getWorkflow(tenant, id);
  if (!found) throw new Missing('Workflow');
  return found;
};

export const listWorkflows = (tenant: Tenant, page: PageRequest) => workflowsPage(tenant, page);

/** Literal target URLs are SSRF-checked at save, as webhook URLs are (and again, pinned, at every request). */
const checkTargets = async (w: Workflow) => {
  for (const { path, url } of literalUrls(w.nodes)) await assertAllowedTarget(url, config().WEBHOOK_ALLOW_PRIVATE_TARGETS, path);
};

const event = (
  type: 'created' | 'updated' | 'activated' | 'deactivated' | 'deleted',
  tenant: Tenant,
  w: Workflow,
  now: Date,
  before?: Workflow,
) =>
  outboxItem(
    buildEnvelope(
      `workflow.definition.${type}`,
      tenant,
      { definition: w },
      {
        now,
        changes: before && type === 'updated' ? { version: [before.version, w.version] } : undefined,
      },
    ),
  );

/** An active schedule's next run from now; none while inactive. */
const schedule = async (w: Workflow, now: Date) => (w.active ? nextRunAt(w.trigger, now) : undefined);

export const createWorkflow = async (unit: Unit, tenant: Tenant, input: CreateWorkflow, now: Date): Promise<Workflow> => {
  const w = newWorkflow(objectId(now.getTime()), input, now);
  await checkTargets(w);
  await unit.commit([...workflowSave(tenant, undefined, w), event('created', tenant, w, now)], lostRace);
  return w;
};

const mutate = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  now: Date,
  change: (s: StoredWorkflow) => Promise<{ after: Workflow; type: 'updated' | 'activated' | 'deactivated' }>,
) =>
  retryOnConflict(async () => {
    const before = await requireWorkflow(tenant, id);
    const { after, type } = await change(before);
    if (after === before.workflow) return after;
    const keepsSchedule =
      type === 'updated' && JSON.stringify(after.trigger) === JSON.stringify(before.workflow.trigger) && before.nextRunAt;
    await unit.commit(
      [
        ...workflowSave(tenant, before, after, keepsSchedule ? before.nextRunAt : await schedule(after, now)),
        event(type, tenant, after, now, before.workflow),
      ],
      lostRace,
    );
    return after;
  });

export const updateWorkflow = (unit: Unit, tenant: Tenant, id: string, input: UpdateWorkflow, now: Date): Promise<Workflow> =>
  mutate(unit, tenant, id, now, async (s) => {
    const after = applyUpdate(s.workflow, input, now);
    if (input.nodes) await checkTargets(after);
    return { after, type: 'updated' };
  });

export const activateWorkflow = (unit: Unit, tenant: Tenant, id: string, active: boolean, now: Date): Promise<Workflow> =>
  mutate(unit, tenant, id, now, async (s) => ({ after: setActive(s.workflow, active, now), type: active ? 'activated' : 'deactivated' }));

/** Deletes the workflow; answers it as it was. */
export const removeWorkflow = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Workflow> =>
  retryOnConflict(async () => {
    const before = await requireWorkflow(tenant, id);
    await unit.commit([...workflowDeletion(tenant, before), event('deleted', tenant, before.workflow, now)], lostRace);
    return before.workflow;
  });

/** One page of the workflow's saved versions, newest first: `total` is the current version (versions are numbered from 1 and never deleted). */
export const workflowVersions = async (tenant: Tenant, id: string, page: PageRequest) => {
  const { workflow } = await requireWorkflow(tenant, id);
  const { versions, nextCursor } = await listVersions(tenant, id, page);
  return { versions, total: workflow.version, nextCursor };
};
