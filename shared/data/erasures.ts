import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import type { Erasure, ErasureCounts } from '../domain/erasure/erasure';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { erasedCsv, erasure as erasureEntity, erasureClaim } from './registry/erasures';
import { createItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';
import { isConditionFailure } from './retry';

/**
 * Erasures (keys: registry/erasures.ts). The job's item holds `step` (the next step to run), its counts and,
 * while it runs, `needles`: a string set of the ids whose mention marks an event or an answer as the
 * customer's. `ERASURE_OF#<customer id>` names the one erasure of a customer, created with it.
 */
const claimKey = (tenant: Tenant, customerId: string) => erasureClaim.key({ tenant, customerId });
const erasureKey = (tenant: Tenant, id: string) => erasureEntity.key({ tenant, id });

export interface StoredErasure {
  erasure: Erasure;
  step: number;
  needles: string[];
}

const read = async (key: Record<string, string>) =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

export const getErasure = async (tenant: Tenant, id: string): Promise<StoredErasure | undefined> => {
  const item = await read(erasureKey(tenant, id));
  if (!item) return undefined;
  const { step, needles, ...erasure } = erasureEntity.parse(item);
  return { erasure, step, needles: [...(needles ?? [])] };
};

/** The id of the customer's erasure, if one was requested. */
export const erasureIdOf = async (tenant: Tenant, customerId: string): Promise<string | undefined> => {
  const claim = await read(claimKey(tenant, customerId));
  return claim && erasureClaim.parse(claim).erasureId;
};

/** The job's item and the customer's claim, refused (`onTaken`) when the customer already has an erasure. */
export const erasureCreation = (tenant: Tenant, erasure: Erasure, onTaken: () => Error): Write[] => [
  createItem({ ...erasureKey(tenant, erasure._id), type: 'ERASURE', ...erasure, step: 0 }),
  createItem({ ...claimKey(tenant, erasure.customerId), type: 'ERASURE_OF', erasureId: erasure._id }, onTaken),
];

/**
 * Rides in the transaction of each removal: counts it, and adds the ids it makes worth looking for. Conditional
 * on the job still running, so a removal is never counted after the job settled.
 */
export const erasureProgress = (tenant: Tenant, id: string, counted: Partial<ErasureCounts>, needles: readonly string[] = []): Write => {
  const entries = Object.entries(counted);
  const adds = [...entries.map((_, i) => `#counts.#c${i} :c${i}`), ...(needles.length ? ['needles :needles'] : [])];
  return updateItem(erasureKey(tenant, id), `ADD ${adds.join(', ')}`, {
    condition: '#status = :running',
    names: { '#counts': 'counts', '#status': 'status', ...Object.fromEntries(entries.map(([k], i) => [`#c${i}`, k])) },
    values: {
      ':running': 'running',
      ...Object.fromEntries(entries.map(([, v], i) => [`:c${i}`, v])),
      ...(needles.length ? { ':needles': new Set(needles) } : {}),
    },
  });
};

/**
 * Records that the bulk CSV at `objectKey` is rewritten without the customer, counting `counted` (and, in the same
 * transaction, `extra`: the export's own rows), once per erasure: a run again finds the record (`onCounted`).
 */
export const csvRewriteClaim = (
  tenant: Tenant,
  id: string,
  objectKey: string,
  counted: Partial<ErasureCounts>,
  onCounted: () => Error,
): Write[] => [
  createItem({ ...erasedCsv.key({ tenant, id, objectKey }), type: 'ERASED_CSV' }, onCounted),
  erasureProgress(tenant, id, counted),
];

/** Moves a queued job to running (or leaves a running one); false when it had already finished. */
export const startErasure = async (unit: Unit, tenant: Tenant, id: string): Promise<boolean> => {
  try {
    await unit.commit([
      updateItem(erasureKey(tenant, id), 'SET #status = :running', {
        condition: '#status IN (:queued, :running)',
        names: { '#status': 'status' },
        values: { ':queued': 'queued', ':running': 'running' },
      }),
    ]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** Records step `from` as done: the next run starts at the next one. A lost race (another run moved it) is harmless. */
export const advanceErasure = async (unit: Unit, tenant: Tenant, id: string, from: number): Promise<void> => {
  try {
    await unit.commit([
      updateItem(erasureKey(tenant, id), 'SET #step = :next', {
        condition: '#step = :from AND #status = :running',
        names: { '#step': 'step', '#status': 'status' },
        values: { ':from': from, ':next': from + 1, ':running': 'running' },
      }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/** Settles a running job, dropping its needles, with `extra` (its event) in the same transaction; false when it had settled. */
export const settleErasure = async (
  unit: Unit,
  tenant: Tenant,
  id: string,
  status: 'completed' | 'failed',
  now: Date,
  extra: Write[] = [],
): Promise<boolean> => {
  try {
    await unit.commit([
      updateItem(erasureKey(tenant, id), 'SET #status = :status, completedAt = :at REMOVE needles', {
        condition: '#status = :running',
        names: { '#status': 'status' },
        values: { ':status': status, ':at': now.toISOString(), ':running': 'running' },
      }),
      ...extra,
    ]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
