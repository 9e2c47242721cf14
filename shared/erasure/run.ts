import { AppError } from '../domain/errors';
import { ERASURE_STEPS } from '../domain/erasure/erasure';
import { ACK, type Verdict } from '../domain/verdict';
import { buildEnvelope } from '../events/envelope';
import { log } from '../log';
import { advanceErasure, getErasure, settleErasure, startErasure } from '../data/erasures';
import { outboxItem } from '../data/outbox';
import type { Unit } from '../data/unit';
import type { ErasureMessage } from '../bulk/queue';
import { answerOf } from '../http/refusals';
import { steps } from './steps';

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
