import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { tenantField, type Tenant } from '../domain/auth/tenant';
import type { Workflow } from '../domain/workflows/definition';
import { bumpCounter, readCounter } from './counters';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { createItem, deleteItem, putItem, type Write } from './transact';
import { workflow, workflowTrigger, workflowVersion } from './registry/workflows';
import { definition, eventTrigger } from '../views/workflows';

/** Workflow definitions (keys and reads: registry/workflows.ts), counted in `workflows`. */
const COUNTER = 'workflows';
const key = (tenant: Tenant, id: string) => workflow.key({ tenant, id });
const versionKey = (tenant: Tenant, id: string, version: number) =>
  workflowVersion.key({ tenant, id, version: String(version).padStart(6, '0') });
const triggerKey = (tenant: Tenant, id: string) => workflowTrigger.key({ tenant, id });

/** A stored workflow: the definition, plus its revision and, for an active schedule, its next run. */
export interface StoredWorkflow {
  workflow: Workflow;
  rev: number;
  nextRunAt?: string;
}

/** The graph and trigger are stored as JSON text: configs hold arbitrary JSON, which DynamoDB cannot always hold as is. */
const graphOf = (w: Workflow) => JSON.stringify({ trigger: w.trigger, nodes: w.nodes, edges: w.edges });
const fromItem = (item: Record<string, unknown>): StoredWorkflow => {
  const { graph, rev, nextRunAt, ...fields } = workflow.parse(item);
  return { workflow: definition.parse({ ...fields, ...JSON.parse(graph) }), rev, nextRunAt };
};
const versionOf = (item: Record<string, unknown>): Workflow => definition.parse(JSON.parse(workflowVersion.parse(item).workflow));

const read = async (k: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: k, ConsistentRead: true }))).Item;

export const getWorkflow = async (tenant: Tenant, id: string): Promise<StoredWorkflow | undefined> => {
  const item = await read(key(tenant, id));
  return item && fromItem(item);
};

/** The graph of one version (the current one lives on the workflow item too). */
export const getVersion = async (tenant: Tenant, id: string, version: number): Promise<Workflow | undefined> => {
  const item = await read(versionKey(tenant, id, version));
  return item && versionOf(item);
};

export const listVersions = async (tenant: Tenant, id: string, page: PageRequest) => {
  const { items, nextCursor } = await queryPage(
    { pk: workflowVersion.build('pk', { tenant, id }), skPrefix: workflowVersion.prefix('sk', {}), newestFirst: true },
    page,
  );
  return { versions: items.map(versionOf), nextCursor };
};

export const workflowsPage = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: workflow.build('gsi1pk', { tenant }), newestFirst: true }, page),
    readCounter(tenant, COUNTER),
  ]);
  return { workflows: items.map((i) => fromItem(i).workflow), total, nextCursor };
};

const triggerWrites = (tenant: Tenant, before: Workflow | undefined, after: Workflow | undefined): Write[] => {
  const listens = (w?: Workflow) => !!w?.active && w.trigger.type === 'event';
  if (after && listens(after)) {
    return [
      putItem({ ...triggerKey(tenant, after._id), type: 'WF_TRIGGER', workflowId: after._id, trigger: JSON.stringify(after.trigger) }),
    ];
  }
  return listens(before) ? [deleteItem(triggerKey(tenant, before!._id))] : [];
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
    ...workflow.index('gsi1', { tenant, id: after._id }),
    ...(nextRunAt ? { nextRunAt, ...workflow.index('gsi2', { nextRunAt, tenant, id: after._id }) } : {}),
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
  (await collect(queryAll({ pk: workflowTrigger.build('pk', { tenant }) }))).map((i) => {
    const { workflowId, trigger } = workflowTrigger.parse(i);
    return { workflowId, trigger: eventTrigger.parse(JSON.parse(trigger)) };
  });

/** Active schedules whose next run is due by `now`, across tenants, oldest first. */
export const dueSchedules = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi2', pk: workflow.build('gsi2pk', {}), skBelow: `${now.toISOString()}~` }, { limit });
  return items.map((i) => {
    const { tenant, id } = workflow.read('gsi2sk', i.gsi2sk);
    return { tenant: tenantField.parse(tenant), id };
  });
};
