import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import * as z from 'zod';
import { tenantField, type Tenant } from '../domain/auth/tenant';
import type { ExecutionState } from '../domain/workflows/interpreter';
import { exactly } from '../views/common';
import {
  isFinished,
  publicExecution,
  type Execution,
  type ExecutionRecord,
  type ExecutionStatus,
  type Step,
} from '../domain/workflows/execution';
import { bump, readCount, type Counter } from './counters';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { retryOnConflict } from './retry';
import { createItem, deleteItem, putItem, transact, type Write } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { execution as executionSchema, step as stepSchema } from '../views/workflows';

/**
 * Workflow executions.
 * - execution by id .......... pk=<tenant>#WFXS       sk=X#<id>      (the record: summary, state, step number)
 * - all, newest first ........ same partition
 * - by workflow .............. gsi1pk=<tenant>#WFXWF#<workflowId>             gsi1sk=<id>   (on the record)
 * - by status ................ gsi2pk=<tenant>#WFXST#<status>                 gsi2sk=<id>   (on the record)
 * - by workflow and status ... gsi1pk=<tenant>#WFXWFST#<workflowId>#<status>  gsi1sk=<id>   (on the index item pk=<tenant>#WFX#<id> sk=IDX)
 * - due steps ................ gsi2pk=WF_DUE  gsi2sk=<dueAt>#<tenant>#<id>     (on the index item, while unfinished)
 * - steps, in order .......... pk=<tenant>#WFX#<id>   sk=STEP#<n, 6 digits>
 * - completed side effects ... pk=<tenant>#WFX#<id>   sk=EFFECT#<executionId:nodeId:attempt>
 * - totals ................... counter WFXCOUNT (sharded): all, per workflow, per status, per workflow × status
 */
const DUE = K.WF_DUE;
const recordKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.WFXS), sk: `${K.X}#${id}` });
const executionPk = (tenant: Tenant, id: string) => tenantPk(tenant, K.WFX, id);
const indexKey = (tenant: Tenant, id: string) => ({ pk: executionPk(tenant, id), sk: K.IDX });
const stepKey = (tenant: Tenant, id: string, n: number) => ({ pk: executionPk(tenant, id), sk: `${K.STEP}#${String(n).padStart(6, '0')}` });
const effectKey = (tenant: Tenant, id: string, key: string) => ({ pk: executionPk(tenant, id), sk: `${K.EFFECT}#${key}` });

const counter = (tenant: Tenant): Counter => ({ pk: tenantPk(tenant), sk: K.WFXCOUNT, shards: 4 });

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

/**
 * Payloads, outputs and state are arbitrary JSON (a trigger's payload, an HTTP response): they are stored
 * as JSON text, since DynamoDB cannot hold every JSON number or key.
 */
const JSON_FIELDS = ['trigger', 'state', 'resumeState', 'output', 'outcome'] as const;
const encode = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).map(([k, v]) => [k, (JSON_FIELDS as readonly string[]).includes(k) && v !== undefined ? JSON.stringify(v) : v]),
  );
const decode = (item: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(item).map(([k, v]) => [k, (JSON_FIELDS as readonly string[]).includes(k) && typeof v === 'string' ? JSON.parse(v) : v]),
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
      gsi1pk: tenantPk(t, K.WFXWF, e.workflowId),
      gsi1sk: e._id,
      gsi2pk: tenantPk(t, K.WFXST, e.status),
      gsi2sk: e._id,
    }),
    index: putItem(
      encode({
        ...indexKey(t, e._id),
        type: 'WF_EXECUTION_INDEX',
        ...summary,
        gsi1pk: tenantPk(t, K.WFXWFST, e.workflowId, e.status),
        gsi1sk: e._id,
        ...(e.dueAt && !isFinished(e.status) ? { gsi2pk: DUE, gsi2sk: indexSk(e.dueAt, t, e._id), messaged, seq: e.seq } : {}),
      }),
    ),
  };
};

/** The interpreter's state, kept as JSON it alone writes: read back whole once its shape is recognised. */
const interpreterState = z.custom<ExecutionState>(
  (v) =>
    typeof v === 'object' && v !== null && Array.isArray((v as ExecutionState).frames) && typeof (v as ExecutionState).steps === 'number',
);
const storedExecution = exactly<StoredExecution>()(
  executionSchema.extend({
    tenant: tenantField,
    state: interpreterState,
    seq: z.number(),
    dueAt: z.string().optional(),
    resumeState: interpreterState.optional(),
  }),
);
const decodeRecord = itemCodec(storedExecution);
const fromRecord = (item: Record<string, unknown>): StoredExecution => decodeRecord(decode(item));

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && !!error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'));

/** Creates the execution with `extra` (its event, a trigger's dedupe guard); false when a guard in `extra` already existed. */
export const createExecution = async (e: StoredExecution, extra: Write[], messaged: boolean): Promise<boolean> => {
  const { record, index } = items(e, messaged);
  try {
    await retryOnConflict(() =>
      transact([createItem(record), index, ...statusCounters(e.tenant, e.workflowId, undefined, e.status), ...extra]),
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
      transact([
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

const decodeSummary = itemCodec(executionSchema);
const summaryOf = (item: Record<string, unknown>): Execution => decodeSummary(decode(item));

export const executionsPage = async (tenant: Tenant, filter: ExecutionFilter, page: PageRequest) => {
  const partition = filter.workflowId
    ? filter.status
      ? { index: 'gsi1' as const, pk: tenantPk(tenant, K.WFXWFST, filter.workflowId, filter.status) }
      : { index: 'gsi1' as const, pk: tenantPk(tenant, K.WFXWF, filter.workflowId) }
    : filter.status
      ? { index: 'gsi2' as const, pk: tenantPk(tenant, K.WFXST, filter.status) }
      : { pk: tenantPk(tenant, K.WFXS), skPrefix: `${K.X}#` };
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
const decodeStep: (item: Record<string, unknown>) => Step = itemCodec(stepSchema);

export const listSteps = async (e: StoredExecution): Promise<Step[]> => {
  const before = stepKey(e.tenant, e._id, e.seq).sk;
  const items = await collect(queryAll({ pk: executionPk(e.tenant, e._id), skPrefix: `${K.STEP}#`, consistent: true }));
  return items
    .filter((item) => String(item.sk) < before)
    .map((item) => {
      return decodeStep(decode(item));
    });
};

/** A side effect's recorded result, by its idempotency key. */
export const getEffect = async (tenant: Tenant, id: string, key: string): Promise<unknown> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: effectKey(tenant, id, key), ConsistentRead: true }),
  );
  return Item && decode(Item).outcome;
};

export const effectRecord = (tenant: Tenant, id: string, key: string, outcome: unknown): Write =>
  putItem(encode({ ...effectKey(tenant, id, key), type: 'WF_EFFECT', outcome }));

/** Unfinished executions due before `before`, across tenants, oldest first: the sweep's work list. */
export const dueExecutions = async (before: Date, limit: number) => {
  const { items: found } = await queryPage({ index: 'gsi2', pk: DUE, skBelow: before.toISOString() }, { limit });
  return found.map((i) => ({
    ...fromIndexSk(i.gsi2sk as string),
    seq: i.seq as number,
    messaged: i.messaged === true,
    dueAt: (i.gsi2sk as string).split('#')[0]!,
  }));
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
        ExpressionAttributeValues: { ':yes': true, ':due': indexSk(dueAt, tenant, id) },
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
  for await (const item of queryAll({ pk: tenantPk(tenant, K.WFXS), skPrefix: `${K.X}#`, consistent: true })) {
    const trigger = String(item.trigger).toLowerCase();
    if (lowered.some((n) => trigger.includes(n))) found.push(fromRecord(item));
  }
  return found;
};

/** Deletes what the execution's own partition holds but its index item: its steps and completed side effects. */
const deleteStepsAndEffects = async (e: StoredExecution): Promise<void> => {
  const pk = executionPk(e.tenant, e._id);
  for (;;) {
    const { items: found } = await queryPage({ pk, consistent: true }, { limit: 99 });
    const rest = found.filter((i) => i.sk !== K.IDX);
    if (!rest.length) return;
    await transact(rest.map((i) => deleteItem({ pk: i.pk as string, sk: i.sk as string })));
  }
};

class Moved extends Error {}

/**
 * Deletes the execution whole, whatever its status (a waiting or running one never runs its next step: a step
 * in flight finds its record gone and saves nothing): its steps and side effects, then its record and index
 * item with the totals lowered and `extra`, on condition it has not moved meanwhile (else it is read again).
 * False when it was gone already, so a job that runs again deletes and counts each execution once.
 */
export const deleteExecution = async (found: StoredExecution, extra: Write[]): Promise<boolean> => {
  for (let e: StoredExecution | undefined = found; e; e = await getExecution(e.tenant, e._id)) {
    await deleteStepsAndEffects(e);
    try {
      await transact([
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
      await deleteStepsAndEffects(e);
      return true;
    } catch (error) {
      if (!(error instanceof Moved)) throw error;
    }
  }
  return false;
};
