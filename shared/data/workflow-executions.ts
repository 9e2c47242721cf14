import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { tenantField, type Tenant } from '../domain/auth/tenant';
import {
  isFinished,
  publicExecution,
  type Execution,
  type ExecutionRecord,
  type ExecutionStatus,
  type Step,
} from '../domain/workflows/execution';
import { bump, readCount, sharded } from './counters';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { retryOnConflict } from './retry';
import { createItem, deleteItem, putItem, type Write } from './transact';
import type { Unit } from './unit';
import { storedKey } from './codec';
import { execution, executionCount, executionEffect, executionIndex, executionStep } from './registry/workflows';

/** Workflow executions: the record, its index item, steps, side effects and totals (keys and indexes: registry/workflows.ts). */
const recordKey = (tenant: Tenant, id: string) => execution.key({ tenant, id });
const indexKey = (tenant: Tenant, id: string) => executionIndex.key({ tenant, id });
const stepKey = (tenant: Tenant, id: string, n: number) => executionStep.key({ tenant, id, n: String(n).padStart(6, '0') });
const effectKey = (tenant: Tenant, id: string, key: string) => executionEffect.key({ tenant, id, key });

/** Every execution record of the tenant. */
const allRecords = (tenant: Tenant) => ({ pk: execution.build('pk', { tenant }), skPrefix: execution.prefix('sk', {}) });

const counter = (tenant: Tenant) => sharded(executionCount, { tenant }, 4);

export interface ExecutionFilter {
  workflowId?: string;
  status?: ExecutionStatus;
}
const totalName = ({ workflowId, status }: ExecutionFilter) =>
  workflowId ? (status ? `ws:${workflowId}:${status}` : `w:${workflowId}`) : status ? `s:${status}` : 'total';

const statusCounters = (tenant: Tenant, workflowId: string, from: ExecutionStatus | undefined, to: ExecutionStatus): Write[] => {
  if (from === to) return [];
  const deltas: Record<string, number> = { [totalName({ status: to })]: 1, [totalName({ workflowId, status: to })]: 1 };
  if (from) Object.assign(deltas, { [totalName({ status: from })]: -1, [totalName({ workflowId, status: from })]: -1 });
  else Object.assign(deltas, { [totalName({})]: 1, [totalName({ workflowId })]: 1 });
  return [bump(counter(tenant), deltas)];
};

/** The totals an execution counts in (all, its workflow, its status, both), each lowered by one. */
const removalCounters = (e: StoredExecution): Write =>
  bump(
    counter(e.tenant),
    Object.fromEntries(
      [{}, { workflowId: e.workflowId }, { status: e.status }, { workflowId: e.workflowId, status: e.status }].map((f) => [
        totalName(f),
        -1,
      ]),
    ),
  );

/** A stored execution with the tenant it belongs to (which the queue message and sweeps carry). */
export type StoredExecution = ExecutionRecord & { tenant: Tenant };

/** Payloads, outputs and state are stored as JSON text (the declarations read them back). */
const JSON_FIELDS = ['trigger', 'state', 'resumeState', 'output', 'outcome'] as const;
const encode = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).map(([k, v]) => [k, (JSON_FIELDS as readonly string[]).includes(k) && v !== undefined ? JSON.stringify(v) : v]),
  );

/** What the API shows of a stored execution. */
export const executionView = ({ tenant: _t, ...record }: StoredExecution) => publicExecution(record);

/** The record item and the index item's write. */
const items = (e: StoredExecution, messaged: boolean): { record: Record<string, unknown>; index: Write } => {
  const t = e.tenant;
  const summary = executionView(e);
  return {
    record: encode({
      ...recordKey(t, e._id),
      type: 'WF_EXECUTION',
      ...e,
      ...execution.index('gsi1', { tenant: t, workflowId: e.workflowId, id: e._id }),
      ...execution.index('gsi2', { tenant: t, status: e.status, id: e._id }),
    }),
    index: putItem(
      encode({
        ...indexKey(t, e._id),
        type: 'WF_EXECUTION_INDEX',
        ...summary,
        ...executionIndex.index('gsi1', { tenant: t, workflowId: e.workflowId, status: e.status, id: e._id }),
        ...(e.dueAt && !isFinished(e.status)
          ? { ...executionIndex.index('gsi2', { dueAt: e.dueAt, tenant: t, id: e._id }), messaged, seq: e.seq }
          : {}),
      }),
    ),
  };
};

const fromRecord = (item: Record<string, unknown>): StoredExecution => execution.parse(item);

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && !!error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'));

/** Creates the execution with `extra` (its event, a trigger's dedupe guard); false when a guard in `extra` already existed. */
export const createExecution = async (unit: Unit, e: StoredExecution, extra: Write[], messaged: boolean): Promise<boolean> => {
  const { record, index } = items(e, messaged);
  try {
    await retryOnConflict(() =>
      unit.commit([createItem(record), index, ...statusCounters(e.tenant, e.workflowId, undefined, e.status), ...extra]),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export const getExecution = async (tenant: Tenant, id: string): Promise<StoredExecution | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: recordKey(tenant, id), ConsistentRead: true }),
  );
  return Item && fromRecord(Item);
};

/**
 * Writes `after` over `before` if nobody moved it since (same step number and status), with the step's
 * record, the counters and `extra` (events) in the same transaction. False when it had moved on.
 */
export const saveExecution = async (
  unit: Unit,
  before: StoredExecution,
  after: StoredExecution,
  step: Step | undefined,
  extra: Write[],
  messaged: boolean,
): Promise<boolean> => {
  const { record, index } = items(after, messaged);
  const guarded = putItem(record, {
    condition: 'seq = :seq AND #status = :status',
    names: { '#status': 'status' },
    values: { ':seq': before.seq, ':status': before.status },
  });
  try {
    await retryOnConflict(() =>
      unit.commit([
        guarded,
        index,
        ...(step ? [createItem(encode({ ...stepKey(after.tenant, after._id, before.seq), type: 'WF_STEP', ...step }))] : []),
        ...statusCounters(after.tenant, after.workflowId, before.status, after.status),
        ...extra,
      ]),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** An execution as a listing shows it: the summary its index item holds, which its record holds too. */
const summaryOf = (item: Record<string, unknown>): Execution => {
  const { seq: _seq, messaged: _messaged, ...summary } = executionIndex.parse(item);
  return summary;
};

export const executionsPage = async (tenant: Tenant, filter: ExecutionFilter, page: PageRequest) => {
  const { workflowId, status } = filter;
  const partition = workflowId
    ? status
      ? { index: 'gsi1' as const, pk: executionIndex.build('gsi1pk', { tenant, workflowId, status }) }
      : { index: 'gsi1' as const, pk: execution.build('gsi1pk', { tenant, workflowId }) }
    : status
      ? { index: 'gsi2' as const, pk: execution.build('gsi2pk', { tenant, status }) }
      : allRecords(tenant);
  const [{ items: found, nextCursor }, total] = await Promise.all([
    queryPage({ ...partition, newestFirst: true }, page),
    readCount(counter(tenant), totalName(filter)),
  ]);
  return { executions: found.map(summaryOf), total, nextCursor };
};

/**
 * The steps recorded before `e` was read. A step commits with the record's move past it, so reading the
 * record first and the steps after gives every one of them; later steps are left for the next read.
 */
export const listSteps = async (e: StoredExecution): Promise<Step[]> => {
  const { pk, sk: before } = stepKey(e.tenant, e._id, e.seq);
  const items = await collect(queryAll({ pk, skPrefix: executionStep.prefix('sk', {}), consistent: true }));
  return items.filter((item) => storedKey(item).sk < before).map((item): Step => executionStep.parse(item));
};

/** A side effect's recorded result, by its idempotency key. */
export const getEffect = async (tenant: Tenant, id: string, key: string): Promise<unknown> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: effectKey(tenant, id, key), ConsistentRead: true }),
  );
  return Item && executionEffect.parse(Item).outcome;
};

export const effectRecord = (tenant: Tenant, id: string, key: string, outcome: unknown): Write =>
  putItem(encode({ ...effectKey(tenant, id, key), type: 'WF_EFFECT', outcome }));

/** Unfinished executions due before `before`, across tenants, oldest first: the sweep's work list. */
export const dueExecutions = async (before: Date, limit: number) => {
  const { items: found } = await queryPage(
    { index: 'gsi2', pk: executionIndex.build('gsi2pk', {}), skBelow: before.toISOString() },
    { limit },
  );
  return found.flatMap((i) => {
    const { dueAt, tenant, id } = executionIndex.read('gsi2sk', i.gsi2sk);
    // The step number is written with the due entry, so every entry of the due index has one.
    const { seq, messaged } = executionIndex.parse(i);
    return seq === undefined ? [] : [{ tenant: tenantField.parse(tenant), id, seq, messaged, dueAt }];
  });
};

/** Marks an execution's due entry as carried by a queue message (sent by the sweep); false if it moved meanwhile. */
export const markMessaged = async (tenant: Tenant, id: string, dueAt: string): Promise<boolean> => {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: indexKey(tenant, id),
        UpdateExpression: 'SET messaged = :yes',
        ConditionExpression: 'gsi2sk = :due',
        ExpressionAttributeValues: { ':yes': true, ':due': executionIndex.index('gsi2', { dueAt, tenant, id }).gsi2sk },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/**
 * The tenant's executions whose starting event names one of `needles` (the trigger's JSON text holds it, in
 * any case): what the customer erasure deletes.
 */
export const executionsNaming = async (tenant: Tenant, needles: readonly string[]): Promise<StoredExecution[]> => {
  const lowered = needles.map((n) => n.toLowerCase());
  const found: StoredExecution[] = [];
  for await (const item of queryAll({ ...allRecords(tenant), consistent: true })) {
    const stored = fromRecord(item);
    const trigger = JSON.stringify(stored.trigger).toLowerCase();
    if (lowered.some((n) => trigger.includes(n))) found.push(stored);
  }
  return found;
};

/** Deletes what the execution's own partition holds but its index item: its steps and completed side effects. */
const deleteStepsAndEffects = async (unit: Unit, e: StoredExecution): Promise<void> => {
  const { pk, sk: index } = indexKey(e.tenant, e._id);
  for (;;) {
    const { items: found } = await queryPage({ pk, consistent: true }, { limit: 99 });
    const rest = found.filter((i) => i.sk !== index);
    if (!rest.length) return;
    await unit.commit(rest.map((i) => deleteItem(storedKey(i))));
  }
};

class Moved extends Error {}

/**
 * Deletes the execution whole, whatever its status (a waiting or running one never runs its next step: a step
 * in flight finds its record gone and saves nothing): its steps and side effects, then its record and index
 * item with the totals lowered and `extra`, on condition it has not moved meanwhile (else it is read again).
 * False when it was gone already, so a job that runs again deletes and counts each execution once.
 */
export const deleteExecution = async (unit: Unit, found: StoredExecution, extra: Write[]): Promise<boolean> => {
  for (let e: StoredExecution | undefined = found; e; e = await getExecution(e.tenant, e._id)) {
    await deleteStepsAndEffects(unit, e);
    try {
      await unit.commit([
        deleteItem(recordKey(e.tenant, e._id), {
          condition: 'seq = :seq AND #status = :status',
          names: { '#status': 'status' },
          values: { ':seq': e.seq, ':status': e.status },
          onFail: () => new Moved(),
        }),
        deleteItem(indexKey(e.tenant, e._id)),
        removalCounters(e),
        ...extra,
      ]);
      // A side effect a step in flight recorded after the first sweep.
      await deleteStepsAndEffects(unit, e);
      return true;
    } catch (error) {
      if (!(error instanceof Moved)) throw error;
    }
  }
  return false;
};
