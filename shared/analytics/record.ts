import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { tenantParts, type Tenant } from '../domain/auth/tenant';
import { localDate } from '../domain/analytics/calendar';
import { attemptTally, contributionOf, type Contribution, type Tally } from '../domain/analytics/measures';
import { addToAgentDay, addToDay, countedEvent, firstReply } from '../data/analytics';
import { retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { DEFAULT_TIMEZONE, getWorkspace } from '../data/workspaces';

class AlreadyCounted extends Error {}
class NotFirstReply extends Error {}

/** The workspace's calendar day of `at`, in its timezone as set when the event is counted. */
const dayOf = async (tenant: Tenant, at: Date): Promise<string> =>
  localDate(at, (await getWorkspace(tenantParts(tenant).workspaceId))?.timezone ?? DEFAULT_TIMEZONE);

const writesOf = (tenant: Tenant, day: string, c: Contribution, withFirstReply: boolean): Write[] => {
  const fr = withFirstReply ? c.firstResponse : undefined;
  const agentTally: Tally | undefined = c.agent && {
    counts: c.agent.tally.counts,
    samples: { ...c.agent.tally.samples, ...(fr ? { firstResponse: fr.seconds } : {}) },
  };
  return [
    ...(fr ? [firstReply(tenant, fr.conversationId, () => new NotFirstReply())] : []),
    ...addToDay(tenant, day, {
      counts: c.workspace.counts,
      samples: { ...c.workspace.samples, ...(fr ? { firstResponse: fr.seconds } : {}) },
    }),
    ...(c.agent && agentTally ? addToAgentDay(tenant, day, c.agent.assigneeId, agentTally) : []),
  ];
};

/**
 * Adds an event to its day's aggregates, exactly once: the event's dedupe item is created in the same
 * transaction as the counter updates, so a redelivered event fails the transaction and counts nothing.
 * A reply counts as its conversation's first response only if it creates the conversation's first-reply
 * marker in that transaction too; otherwise it is counted again without the first-response sample.
 */
export const recordEvent = async (unit: Unit, envelope: EventEnvelope, now = new Date()): Promise<'counted' | 'duplicate' | 'ignored'> => {
  const contribution = contributionOf(envelope);
  if (!contribution) return 'ignored';
  const tenant = envelopeTenant(envelope);
  const day = await dayOf(tenant, new Date(envelope.occurredAt));
  const counted = () => countedEvent(tenant, envelope.eventId, now, () => new AlreadyCounted());
  try {
    await retryOnConflict(async () => {
      try {
        await unit.commit([counted(), ...writesOf(tenant, day, contribution, true)]);
      } catch (error) {
        if (!(error instanceof NotFirstReply)) throw error;
        await unit.commit([counted(), ...writesOf(tenant, day, contribution, false)]);
      }
    });
    return 'counted';
  } catch (error) {
    if (error instanceof AlreadyCounted) return 'duplicate';
    throw error;
  }
};

/** A recorded webhook attempt, as analytics counts it: made at `at`, its day in the workspace's `timezone`. */
export interface RecordedAttempt {
  tenant: Tenant;
  timezone: string;
  status: string;
  latencyMs: number | undefined;
  at: Date;
}

/**
 * The day-aggregate writes of some recorded attempts: one update per workspace day they fall on, each with the
 * attempts it sums, so a write that fails can give its own attempts back to be written again.
 */
export const attemptWrites = (attempts: readonly RecordedAttempt[]): { write: Write; attempts: RecordedAttempt[] }[] => {
  const days = new Map<string, { tenant: Tenant; date: string; attempts: RecordedAttempt[] }>();
  for (const a of attempts) {
    const date = localDate(a.at, a.timezone);
    const key = `${a.tenant} ${date}`;
    const day = days.get(key) ?? { tenant: a.tenant, date, attempts: [] };
    day.attempts.push(a);
    days.set(key, day);
  }
  return [...days.values()].flatMap((day) =>
    addToDay(day.tenant, day.date, ...day.attempts.map((a) => attemptTally(a.status, a.latencyMs))).map((write) => ({
      write,
      attempts: day.attempts,
    })),
  );
};
