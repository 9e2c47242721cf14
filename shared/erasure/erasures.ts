import type { Tenant } from '../domain/auth/tenant';
import { AppError, NotFoundError } from '../domain/errors';
import { ERASURE_STEPS, newErasure, type Erasure } from '../domain/erasure/erasure';
import { ACK, type Verdict } from '../domain/verdict';
import { buildEnvelope } from '../events/envelope';
import { objectId } from '../ids';
import { log } from '../log';
import { getCustomer } from '../data/customers';
import { advanceErasure, erasureCreation, erasureIdOf, getErasure, settleErasure, startErasure } from '../data/erasures';
import { outboxItem } from '../data/outbox';
import { lostRace } from '../data/retry';
import type { Unit } from '../data/unit';
import { enqueueBulkJob, type ErasureMessage } from '../bulk/queue';
import { answerOf } from '../http/refusals';
import { steps } from './steps';

const enqueue = (unit: Unit, tenant: Tenant, erasureId: string) => () => enqueueBulkJob(unit, { tenant, kind: 'erasure', erasureId });

/**
 * Records the erasure of a customer and queues it; answered at once as `queued`. A customer has one erasure:
 * asking again answers that one (queued again while unfinished, so a job whose message was lost resumes), even
 * once the customer is gone. A customer that never was is a 404.
 */
export const requestErasure = async (unit: Unit, tenant: Tenant, customerId: string, now: Date): Promise<Erasure> => {
  const existing = await erasureIdOf(tenant, customerId);
  const stored = existing ? await getErasure(tenant, existing) : undefined;
  if (stored) {
    if (stored.erasure.status === 'queued' || stored.erasure.status === 'running')
      await unit.afterCommit(enqueue(unit, tenant, stored.erasure._id));
    return stored.erasure;
  }
  if (!(await getCustomer(tenant, customerId))) throw new NotFoundError('Customer');
  const erasure = newErasure(objectId(now.getTime()), customerId, now);
  await unit.commit(erasureCreation(tenant, erasure, lostRace));
  await unit.afterCommit(enqueue(unit, tenant, erasure._id));
  return erasure;
};

export const readErasure = async (tenant: Tenant, id: string): Promise<Erasure> => {
  const stored = await getErasure(tenant, id);
  if (!stored) throw new NotFoundError('Erasure');
  return stored.erasure;
};

/**
 * The worker: runs the steps from the one recorded next, recording each as done; the last settles the job
 * with `customer.contact.erased` (the id alone) in the same transaction. A crash anywhere leaves the job at a
 * step that is safe to run again. A finished job's message is acknowledged and nothing more.
 */
export const runErasure = async (unit: Unit, { tenant, erasureId }: ErasureMessage, now: () => Date): Promise<Verdict> => {
  if (!(await startErasure(unit, tenant, erasureId))) return ACK;
  const read = async () => (await getErasure(tenant, erasureId))!;
  const { erasure } = await read();
  const ctx = {
    tenant,
    erasureId,
    customerId: erasure.customerId,
    now: now(),
    needles: async () => [erasure.customerId, ...(await read()).needles],
  };
  try {
    for (let step = (await read()).step; step < ERASURE_STEPS.length; step++) {
      await steps[ERASURE_STEPS[step]!](ctx);
      await advanceErasure(unit, tenant, erasureId, step);
    }
  } catch (error) {
    // A refusal is the same on every retry; anything else comes back with the message, and resumes.
    const refusal = error instanceof AppError ? error : answerOf(error);
    if (!refusal) throw error;
    log.warn('erasure failed', { erasureId, error: refusal.message });
    await settleErasure(unit, tenant, erasureId, 'failed', now());
    return ACK;
  }
  const event = buildEnvelope('customer.contact.erased', tenant, { contact: { _id: erasure.customerId } }, { now: now() });
  await settleErasure(unit, tenant, erasureId, 'completed', now(), [outboxItem(event)]);
  return ACK;
};
