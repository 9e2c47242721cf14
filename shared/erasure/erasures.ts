import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { newErasure, type Erasure } from '../domain/erasure/erasure';
import { objectId } from '../ids';
import { getCustomer } from '../data/customers';
import { erasureCreation, erasureIdOf, getErasure } from '../data/erasures';
import { lostRace } from '../data/retry';
import type { Unit } from '../data/unit';
import { enqueueBulkJob } from '../bulk/queue';

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
