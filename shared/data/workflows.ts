import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import type { Workflow } from '../domain/workflows/definition';
import { bumpCounter, readCounter } from './counters';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { createItem, deleteItem, putItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * Workflow definitions.
 * - workflow by id ........... pk=<tenant>#WF#<id>   sk=WF      (`rev` guards read-modify-write)
 * - a version's graph ........ pk=<tenant>#WF#<id>   sk=VER#<version, 6 digits>  (executions run the version they started on)
 * - workflows, newest first .. gsi1pk=<tenant>#WFS   gsi1sk=<id>
 * - active event triggers .... pk=<tenant>#WFTRIG    sk=<id>   (only while active; the trigger function reads the partition)
 * - due schedules ............ gsi2pk=WF_SCHEDULES  gsi2sk=<nextRunAt>#<tenant>#<id>  (only while active, across tenants)
 * - total .................... counter `workflows`
 */
const COUNTER = 'workflows';
const SCHEDULES = K.WF_SCHEDULES;
const key = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.WF, id), sk: K.WF });
const versionKey = (tenant: Tenant, id: string, version: number) => ({
  pk: tenantPk(tenant, K.WF, id),
  sk: `${K.VER}#${String(version).padStart(6, '0')}`,
});
const triggersPk = (tenant: Tenant) => tenantPk(tenant, K.WFTRIG);

/** A stored workflow: the definition, plus its revision and, for an active schedule, its next run. */
export interface StoredWorkflow {
  workflow: Workflow;
  rev: number;
  nextRunAt?: string;
}

const FIELDS = ['_id', 'name', 'description', 'active', 'version', 'createdAt', 'updatedAt'] as const;
/** The graph and trigger are stored as JSON text: configs hold arbitrary JSON, which DynamoDB cannot always hold as is. */
const graphOf = (w: Workflow) => JSON.stringify({ trigger: w.trigger, nodes: w.nodes, edges: w.edges });
const fromItem = (item: Record<string, unknown>): StoredWorkflow => ({
  workflow: {
    ...Object.fromEntries(FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])),
    ...JSON.parse(item.graph as string),
  } as Workflow,
  rev: item.rev as number,
  nextRunAt: item.nextRunAt as string | undefined,
});

const read = async (k: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: k, ConsistentRead: true }))).Item;

export const getWorkflow = async (tenant: Tenant, id: string): Promise<StoredWorkflow | undefined> => {
  const item = await read(key(tenant, id));
  return item && fromItem(item);
};

/** The graph of one version (the current one lives on the workflow item too). */
export const getVersion = async (tenant: Tenant, id: string, version: number): Promise<Workflow | undefined> => {
  const item = await read(versionKey(tenant, id, version));
  return item && (JSON.parse(item.workflow as string) as Workflow);
};

export const listVersions = async (tenant: Tenant, id: string, page: PageRequest) => {
  const { items, nextCursor } = await queryPage({ pk: tenantPk(tenant, K.WF, id), skPrefix: `${K.VER}#`, newestFirst: true }, page);
  return { versions: items.map((i) => JSON.parse(i.workflow as string) as Workflow), nextCursor };
};

export const workflowsPage = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: tenantPk(tenant, K.WFS), newestFirst: true }, page),
    readCounter(tenant, COUNTER),
  ]);
  return { workflows: items.map((i) => fromItem(i).workflow), total, nextCursor };
};

const triggerWrites = (tenant: Tenant, before: Workflow | undefined, after: Workflow | undefined): Write[] => {
  const listens = (w?: Workflow) => !!w?.active && w.trigger.type === 'event';
  if (after && listens(after)) {
    return [
      putItem({ pk: triggersPk(tenant), sk: after._id, type: 'WF_TRIGGER', workflowId: after._id, trigger: JSON.stringify(after.trigger) }),
    ];
  }
  return listens(before) ? [deleteItem({ pk: triggersPk(tenant), sk: before!._id })] : [];
};

/**
 * The writes that store `after` over the stored workflow (or create it), with its version's graph when the
 * version is new, its trigger entries and its next scheduled run, guarded by the revision read.
 */
export const workflowSave = (tenant: Tenant, before: StoredWorkflow | undefined, after: Workflow, nextRunAt?: string): Write[] => {
  const rev = (before?.rev ?? 0) + 1;
  const { trigger: _t, nodes: _n, edges: _e, ...fields } = after;
  const item = {
    ...key(tenant, after._id),
    type: 'WORKFLOW',
    ...fields,
    graph: graphOf(after),
    rev,
    gsi1pk: tenantPk(tenant, K.WFS),
    gsi1sk: after._id,
    ...(nextRunAt ? { nextRunAt, gsi2pk: SCHEDULES, gsi2sk: indexSk(nextRunAt, tenant, after._id) } : {}),
  };
  const writes: Write[] = [
    before ? putItem(item, { condition: 'rev = :rev', values: { ':rev': before.rev } }) : createItem(item),
    ...(before?.workflow.version === after.version
      ? []
      : [createItem({ ...versionKey(tenant, after._id, after.version), type: 'WORKFLOW_VERSION', workflow: JSON.stringify(after) })]),
    ...triggerWrites(tenant, before?.workflow, after),
    ...(before ? [] : [bumpCounter(tenant, COUNTER, 1)]),
  ];
  return writes;
};

/** The writes that delete the workflow as read (guarded by its revision) and its trigger entries; its versions stay. */
export const workflowDeletion = (tenant: Tenant, before: StoredWorkflow): Write[] => [
  deleteItem(key(tenant, before.workflow._id), { condition: 'rev = :rev', values: { ':rev': before.rev } }),
  ...triggerWrites(tenant, before.workflow, undefined),
  bumpCounter(tenant, COUNTER, -1),
];

/** The tenant's active event-triggered workflows (id and trigger). */
export const eventTriggers = async (tenant: Tenant) =>
  (await collect(queryAll({ pk: triggersPk(tenant) }))).map((i) => ({
    workflowId: i.workflowId as string,
    trigger: JSON.parse(i.trigger as string) as Extract<Workflow['trigger'], { type: 'event' }>,
  }));

/** Active schedules whose next run is due by `now`, across tenants, oldest first. */
export const dueSchedules = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi2', pk: SCHEDULES, skBelow: `${now.toISOString()}~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi2sk as string));
};
