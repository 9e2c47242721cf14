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
import { createBroadcast, mutateBroadcast } from '../data/broadcasts';
import { channelExists } from '../data/channels';
import { enqueueBroadcast } from './queue';

const noSuchChannel = () => new ValidationError([{ path: 'channelId', message: 'No such channel in this workspace' }]);

export const draftBroadcast = (tenant: Tenant, input: CreateBroadcast, now: Date): Promise<Broadcast> =>
  createBroadcast(tenant, input, now, channelExists(tenant, input.channelId, noSuchChannel));

export const editBroadcast = async (tenant: Tenant, id: string, patch: UpdateBroadcast, now: Date): Promise<Broadcast> =>
  (
    await mutateBroadcast(tenant, id, (s) => editDraft(s.broadcast, patch, now), now, {
      extra: patch.channelId ? [channelExists(tenant, patch.channelId, noSuchChannel)] : [],
    })
  ).broadcast;

/**
 * Its start message goes on the queue now, delayed to the scheduled time when SQS can hold it (≤ 15 min);
 * a later time is picked up by the minute timer. Either way, starting is conditional, so it happens once.
 */
export const scheduleBroadcast = async (tenant: Tenant, id: string, at: string, now: Date): Promise<Broadcast> => {
  const { broadcast } = await mutateBroadcast(tenant, id, (s) => schedule(s.broadcast, at, now), now);
  const wait = Date.parse(broadcast.scheduledAt!) - now.getTime();
  if (wait <= MAX_DELAY_SECONDS * 1000) await enqueueBroadcast([{ kind: 'start', workspaceId: tenant, broadcastId: id }], wait);
  return broadcast;
};

/** Starts sending now; a crash before the start message is sent leaves it in the timer's due index. */
export const sendBroadcast = async (tenant: Tenant, id: string, now: Date): Promise<Broadcast> => {
  const { broadcast } = await mutateBroadcast(tenant, id, (s) => startSending(s.broadcast, now), now);
  await enqueueBroadcast([{ kind: 'start', workspaceId: tenant, broadcastId: id }]);
  return broadcast;
};

/** Recipients not yet claimed are never sent to; sends already in flight finish. */
export const cancelBroadcast = async (tenant: Tenant, id: string, now: Date): Promise<Broadcast> =>
  (await mutateBroadcast(tenant, id, (s) => cancel(s.broadcast, now), now)).broadcast;
