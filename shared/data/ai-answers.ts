import type { Tenant } from '../domain/auth/tenant';
import { aiAnswer } from './registry/knowledge';
import { createItem, type Write } from './transact';

/**
 * The guard that an incoming message is answered at most once: created in the answer's own transaction, so a
 * redelivered event (or a second consumer) fails it with `onFail` and writes nothing.
 */
export const answerGuard = (tenant: Tenant, messageId: string, now: Date, onFail: () => Error): Write =>
  createItem({ ...aiAnswer.key({ tenant, messageId }), type: 'AI_ANSWER', at: now.toISOString() }, onFail);
