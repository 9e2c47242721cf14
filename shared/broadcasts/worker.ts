import { ACK, later, MAX_DELAY_SECONDS, type Verdict } from '../queues';
import { allSettled, complete, startSending, type Broadcast } from '../domain/broadcasts/broadcast';
import { batchGet } from '../data/batch-get';
import { addRecipient, claimRecipient, getRecipient, postponeRecipient, settleRecipient } from '../data/broadcast-recipients';
import { getBroadcast, getBroadcastState, mutateBroadcast, readStats } from '../data/broadcasts';
import { channelWithSecrets, markChannelErrored } from '../data/channels';
import { sendRecord } from '../data/channel-sends';
import { takeSendSlot } from '../data/channel-rate';
import { fromItem as customerFromItem } from '../data/customers';
import { customerKey } from '../data/entity-keys';
import { sendOutcome } from '../channels/outcome';
import { providers } from '../channels/providers';
import { audienceOf } from './audience';
import { enqueueBroadcast, type BroadcastMessage } from './queue';
import { recipientReceipt } from './receipts';

/** Longer than the worker's timeout, shorter than the queue's visibility timeout (see wiring). */
export const RECIPIENT_LEASE_MS = 20_000;
const FAN_OUT_CHUNK = 100;

/**
 * Ends a sending broadcast once every recipient has an outcome (conditional: one worker does it). A
 * recipient's worker that read it sending and fanned out says so, and only the stats are read again.
 */
const maybeComplete = async (ws: string, id: string, fannedOut = false): Promise<void> => {
  if (!fannedOut) {
    const state = await getBroadcastState(ws, id);
    if (!state || state.broadcast.status !== 'sending' || !state.fannedOut) return;
  }
  if (!allSettled(await readStats(ws, id))) return;
  const now = new Date();
  await mutateBroadcast(ws, id, (s) => (s.broadcast.status === 'sending' && s.fannedOut && allSettled(s.broadcast.stats) ? complete(s.broadcast, s.broadcast.stats, now) : undefined), now);
};

/** Writes each audience member as a recipient (blocked and unknown customers skipped) and enqueues the queued ones. */
const fanOut = async (ws: string, b: Broadcast): Promise<void> => {
  let chunk: string[] = [];
  const flush = async () => {
    const customers = new Map((await batchGet(chunk.map((id) => customerKey(ws, id)))).map((item) => [item._id as string, customerFromItem(item)]));
    const now = new Date();
    const queued = await Promise.all(
      chunk.map(async (id) => {
        const customer = customers.get(id);
        const skip = !customer ? 'customer_not_found' : customer.blocked ? 'customer_blocked' : undefined;
        await addRecipient(ws, b._id, id, skip, now);
        return skip ? undefined : id;
      }),
    );
    // A recipient this fan-out met already (a rerun) is enqueued again: its claim keeps it from a second send.
    const messages: BroadcastMessage[] = queued.filter((id) => id !== undefined).map((customerId) => ({ kind: 'recipient', workspaceId: ws, broadcastId: b._id, customerId }));
    await enqueueBroadcast(messages);
    chunk = [];
  };
  for await (const id of audienceOf(ws, b.audience)) {
    chunk.push(id);
    if (chunk.length === FAN_OUT_CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();
};

/** `start`: a scheduled broadcast whose time has come starts sending; a sending one not yet fanned out is fanned out. */
const start = async (ws: string, id: string): Promise<Verdict> => {
  let stored = await getBroadcast(ws, id);
  if (!stored) return ACK;
  const { broadcast } = stored;
  if (broadcast.status === 'scheduled') {
    const wait = Date.parse(broadcast.scheduledAt!) - Date.now();
    // Early: wait on the queue when SQS can hold it that long; otherwise the timer sends a new message when it is due.
    if (wait > 0) return wait <= MAX_DELAY_SECONDS * 1000 ? later(wait) : ACK;
    const now = new Date();
    stored = await mutateBroadcast(ws, id, (s) => (s.broadcast.status === 'scheduled' && Date.parse(s.broadcast.scheduledAt!) <= now.getTime() ? startSending(s.broadcast, now) : undefined), now);
  }
  if (stored.broadcast.status !== 'sending' || stored.fannedOut) return ACK;
  await fanOut(ws, stored.broadcast);
  await mutateBroadcast(ws, id, (s) => (s.broadcast.status === 'sending' && !s.fannedOut ? s.broadcast : undefined), new Date(), { fannedOut: true });
  await maybeComplete(ws, id);
  return ACK;
};

/** `recipient`: one send, throttled per channel account, claimed so that it happens once. */
const sendToRecipient = async (ws: string, broadcastId: string, customerId: string): Promise<Verdict> => {
  const r = await getRecipient(ws, broadcastId, customerId);
  if (!r || (r.recipient.status !== 'queued' && r.recipient.status !== 'sending')) return ACK;
  const now = Date.now();
  if (r.recipient.status === 'sending' && r.leaseUntil !== undefined && r.leaseUntil >= now) return later(r.leaseUntil - now + 1000);
  if (r.notBefore !== undefined && r.notBefore > now) return later(r.notBefore - now);
  const stored = await getBroadcastState(ws, broadcastId);
  if (!stored) return ACK;
  const fannedOut = stored.broadcast.status === 'sending' && stored.fannedOut;
  const settle = async (to: 'failed' | 'skipped' | 'cancelled', reason: string, lease?: number) => {
    await settleRecipient(ws, broadcastId, customerId, { from: ['queued', 'sending'], to, reason, stats: { [to]: 1 }, lease }, new Date());
    await maybeComplete(ws, broadcastId, fannedOut);
    return ACK;
  };
  if (stored.broadcast.status === 'cancelled') return settle('cancelled', 'broadcast_cancelled');
  if (stored.broadcast.status !== 'sending') return ACK;
  const channel = await channelWithSecrets(ws, stored.broadcast.channelId);
  if (!channel) return settle('failed', 'channel_deleted');
  if (channel.account.status !== 'connected') return settle('failed', channel.account.status === 'error' ? 'channel_error' : 'channel_disconnected');
  const wait = await takeSendSlot(ws, channel.account._id, channel.account.ratePerSecond);
  if (wait > 0) return later(wait);
  const lease = Date.now() + RECIPIENT_LEASE_MS;
  if (!(await claimRecipient(ws, broadcastId, customerId, r, Date.now(), lease))) return later(1000);
  const attempts = r.attempts + 1;
  const [item] = await batchGet([customerKey(ws, customerId)]);
  const customer = item ? customerFromItem(item) : undefined;
  if (!customer || customer.blocked) return settle('skipped', customer ? 'customer_blocked' : 'customer_not_found', lease);
  const key = `${broadcastId}.${customerId}`;
  const { broadcast } = stored;
  const result = await providers[channel.account.type].send(channel.account, channel.secrets, {
    tenant: ws,
    key,
    kind: 'broadcast',
    to: customer,
    content: broadcast.content,
    attachments: [],
    subject: broadcast.subject,
    references: [],
    context: { broadcast: { _id: broadcast._id, name: broadcast.name } },
    attempt: attempts,
  });
  return sendOutcome(result, { tenant: ws, channelId: channel.account._id, key, kind: 'broadcast' }, {
    attempts,
    sent: async (ok) => {
      const writes = [...ok.writes, sendRecord(ws, channel.account._id, key, { target: 'recipient', broadcastId, customerId })];
      const sent = await settleRecipient(ws, broadcastId, customerId, { from: 'sending', to: 'sent', stats: { sent: 1 }, lease, writes }, new Date());
      if (sent) for (const status of ok.receipts) await recipientReceipt(ws, broadcastId, customerId, status, undefined, new Date());
      await maybeComplete(ws, broadcastId, fannedOut);
      return ACK;
    },
    retry: async (delayMs) => {
      await postponeRecipient(ws, broadcastId, customerId, lease, Date.now() + delayMs);
      return later(delayMs);
    },
    failed: async (reason, accountError) => {
      if (accountError) await markChannelErrored(ws, channel.account._id, reason, new Date());
      return settle('failed', reason, lease);
    },
  });
};

export const handleBroadcastMessage = (m: BroadcastMessage): Promise<Verdict> =>
  m.kind === 'start' ? start(m.workspaceId, m.broadcastId) : sendToRecipient(m.workspaceId, m.broadcastId, m.customerId);
