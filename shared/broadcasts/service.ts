import type { Tenant } from '../domain/auth/tenant';
import { MAX_DELAY_SECONDS } from '../queues';
import { ValidationError } from '../domain/errors';
import {
  cancel,
  editDraft,
  schedule,
  startSending,
  type Broadcast,
  type CreateBroadcast,
  type UpdateBroadcast,
} from '../domain/broadcasts/broadcast';
import { dueBroadcasts } from '../data/broadcasts';
import { createBroadcast, mutateBroadcast } from './records';
import { channelExists } from '../data/channels';
import { enqueueBroadcast, type BroadcastMessage } from './queue';
import type { Unit } from '../data/unit';

const startMessage = (tenant: Tenant, broadcastId: string): BroadcastMessage => ({ kind: 'start', tenant, broadcastId });

const noSuchChannel = () => new ValidationError([{ path: 'channelId', message: 'No such channel in this workspace' }]);

export const draftBroadcast = (unit: Unit, tenant: Tenant, input: CreateBroadcast, now: Date): Promise<Broadcast> =>
  createBroadcast(unit, tenant, input, now, channelExists(tenant, input.channelId, noSuchChannel));

export const editBroadcast = async (unit: Unit, tenant: Tenant, id: string, patch: UpdateBroadcast, now: Date): Promise<Broadcast> =>
  (
    await mutateBroadcast(unit, tenant, id, (s) => editDraft(s.broadcast, patch, now), now, {
      extra: patch.channelId ? [channelExists(tenant, patch.channelId, noSuchChannel)] : [],
    })
  ).broadcast;

/**
 * Its start message goes on the queue now, delayed to the scheduled time when SQS can hold it (≤ 15 min);
 * a later time is picked up by the minute timer. Either way, starting is conditional, so it happens once.
 */
export const scheduleBroadcast = async (unit: Unit, tenant: Tenant, id: string, at: string, now: Date): Promise<Broadcast> => {
  const { broadcast } = await mutateBroadcast(unit, tenant, id, (s) => schedule(s.broadcast, at, now), now);
  const wait = Date.parse(broadcast.scheduledAt!) - now.getTime();
  if (wait <= MAX_DELAY_SECONDS * 1000) await enqueueBroadcast(unit, [startMessage(tenant, id)], wait);
  return broadcast;
};

/** Starts sending now; a crash before the start message is sent leaves it in the timer's due index. */
export const sendBroadcast = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Broadcast> => {
  const { broadcast } = await mutateBroadcast(unit, tenant, id, (s) => startSending(s.broadcast, now), now);
  await enqueueBroadcast(unit, [startMessage(tenant, id)]);
  return broadcast;
};

/** Recipients not yet claimed are never sent to; sends already in flight finish. */
export const cancelBroadcast = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Broadcast> =>
  (await mutateBroadcast(unit, tenant, id, (s) => cancel(s.broadcast, now), now)).broadcast;

/** Broadcasts the minute timer starts or wakes per run; the rest wait for the next minute. */
const DUE_PER_RUN = 500;

/**
 * A start message for each broadcast whose scheduled time has come, or whose fan-out has not finished (a crash
 * between `send` and its message); answers how many. Starting is conditional on the broadcast's state, so a
 * broadcast that is also started by its own delayed message starts once.
 */
export const startDueBroadcasts = async (unit: Unit, now: Date): Promise<number> => {
  const due = await dueBroadcasts(now, DUE_PER_RUN);
  await enqueueBroadcast(
    unit,
    due.map(({ tenant, id }) => startMessage(tenant, id)),
  );
  return due.length;
};
