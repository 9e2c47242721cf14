import type { Tenant } from '../domain/auth/tenant';
import { MAX_DELAY_SECONDS } from '../queues';
import { ACK, later, type Verdict } from '../domain/verdict';
import { allSettled, complete, startSending, type Broadcast } from '../domain/broadcasts/broadcast';
import { batchGet, batchGetEach } from '../data/batch-get';
import {
  addRecipients,
  claimRecipients,
  postponeRecipient,
  recipientKey,
  settleRecipients,
  storedOf,
  type Settle,
  type StoredRecipient,
} from '../data/broadcast-recipients';
import { broadcastKey, getBroadcast, getBroadcastState, readStats, stateOf } from '../data/broadcasts';
import { mutateBroadcast } from './records';
import { channelKey } from '../data/channels';
import { markChannelErrored } from '../channels/account-records';
import { sendRecord } from '../data/channel-sends';
import { takeSendSlots } from '../data/channel-rate';
import { fromItem as customerFromItem } from '../data/customers';
import { customerKey } from '../data/entity-keys';
import { sendOutcome } from '../channels/outcome';
import { channelWithSecrets, openChannel } from '../channels/secrets';
import { providers } from '../channels/providers';
import { audienceOf } from './audience';
import { customersOf, enqueueBroadcast, RECIPIENTS_PER_MESSAGE, type BroadcastMessage, type RecipientMessage } from './queue';
import { sentStats } from '../domain/broadcasts/receipts';
import { direct, type Unit } from '../data/unit';

/** Longer than the worker's timeout, shorter than the queue's visibility timeout (see wiring). */
const RECIPIENT_LEASE_MS = 20_000;
const FAN_OUT_CHUNK = 100;
/**
 * Recipients sent to together: their read (recipients and customers, with the broadcast and the channel)
 * is one BatchGetItem of at most 100 keys, and their claims (with the broadcast's check) one transaction.
 */
const SEND_CHUNK = 49;

/** `items` in as few runs of at most `max` as can be, of sizes that differ by one at most. */
const evenRuns = <T>(items: readonly T[], max: number): T[][] => {
  const size = Math.ceil(items.length / Math.ceil(items.length / max));
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
};

/**
 * Ends a sending broadcast once every recipient has an outcome (conditional: one worker does it). A
 * recipient's worker that read it sending and fanned out says so, and only the stats are read again.
 */
const maybeComplete = async (unit: Unit, tenant: Tenant, id: string, fannedOut = false): Promise<void> => {
  if (!fannedOut) {
    const state = await getBroadcastState(tenant, id);
    if (state?.broadcast.status !== 'sending' || !state.fannedOut) return;
  }
  if (!allSettled(await readStats(tenant, id))) return;
  const now = new Date();
  await mutateBroadcast(
    unit,
    tenant,
    id,
    (s) =>
      s.broadcast.status === 'sending' && s.fannedOut && allSettled(s.broadcast.stats)
        ? complete(s.broadcast, s.broadcast.stats, now)
        : undefined,
    now,
  );
};

/** Writes each audience member as a recipient (blocked and unknown customers skipped) and enqueues the queued ones. */
const fanOut = async (unit: Unit, tenant: Tenant, b: Broadcast): Promise<void> => {
  let chunk: string[] = [];
  const flush = async () => {
    const customers = new Map(
      (await batchGet(chunk.map((id) => customerKey(tenant, id)))).map((item) => [item._id as string, customerFromItem(item)]),
    );
    const recipients = chunk.map((customerId) => {
      const customer = customers.get(customerId);
      return { customerId, skip: !customer ? 'customer_not_found' : customer.blocked ? 'customer_blocked' : undefined };
    });
    await addRecipients(tenant, b._id, recipients, new Date());
    // A recipient this fan-out met already (a rerun) is enqueued again: its claim keeps it from a second send.
    const queued = recipients.filter((r) => !r.skip).map((r) => r.customerId);
    await enqueueBroadcast(
      unit,
      evenRuns(queued, RECIPIENTS_PER_MESSAGE).map((customerIds) => ({
        kind: 'recipient',
        tenant,
        broadcastId: b._id,
        channelId: b.channelId,
        customerIds,
      })),
    );
    chunk = [];
  };
  for await (const id of audienceOf(tenant, b.audience)) {
    chunk.push(id);
    if (chunk.length === FAN_OUT_CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();
};

/** `start`: a scheduled broadcast whose time has come starts sending; a sending one not yet fanned out is fanned out. */
const start = async (unit: Unit, tenant: Tenant, id: string): Promise<Verdict> => {
  let stored = await getBroadcast(tenant, id);
  if (!stored) return ACK;
  const { broadcast } = stored;
  if (broadcast.status === 'scheduled') {
    const wait = Date.parse(broadcast.scheduledAt!) - Date.now();
    // Early: wait on the queue when SQS can hold it that long; otherwise the timer sends a new message when it is due.
    if (wait > 0) return wait <= MAX_DELAY_SECONDS * 1000 ? later(wait) : ACK;
    const now = new Date();
    stored = await mutateBroadcast(
      unit,
      tenant,
      id,
      (s) =>
        s.broadcast.status === 'scheduled' && Date.parse(s.broadcast.scheduledAt!) <= now.getTime()
          ? startSending(s.broadcast, now)
          : undefined,
      now,
    );
  }
  if (stored.broadcast.status !== 'sending' || stored.fannedOut) return ACK;
  await fanOut(unit, tenant, stored.broadcast);
  await mutateBroadcast(unit, tenant, id, (s) => (s.broadcast.status === 'sending' && !s.fannedOut ? s.broadcast : undefined), new Date(), {
    fannedOut: true,
  });
  await maybeComplete(unit, tenant, id);
  return ACK;
};

const settled = (to: 'failed' | 'skipped' | 'cancelled', reason: string, lease?: number): Settle => ({
  from: ['queued', 'sending'],
  to,
  reason,
  stats: { [to]: 1 },
  lease,
});

interface Sent {
  verdicts: Map<string, Verdict>;
  /** Some recipient was settled, and whether the broadcast read then had been fanned out. */
  settled?: { fannedOut: boolean };
}

/**
 * Some of one broadcast's recipients, sent to together: their recipients read at once, as many send slots
 * taken as the account's rate allows, the sends claimed in one transaction, each provider called, and the
 * outcomes recorded under those claims many to a transaction. Returns each customer's verdict.
 */
const sendToRecipients = async (
  unit: Unit,
  tenant: Tenant,
  broadcastId: string,
  channelId: string | undefined,
  customerIds: string[],
): Promise<Sent> => {
  const verdicts = new Map<string, Verdict>(customerIds.map((id) => [id, ACK]));
  // The broadcast, the recipients, the customers and the channel (named by the message, else read once the broadcast names it), in one read.
  const n = customerIds.length;
  const read = await batchGetEach([
    broadcastKey(tenant, broadcastId),
    ...customerIds.map((id) => recipientKey(tenant, broadcastId, id)),
    ...customerIds.map((id) => customerKey(tenant, id)),
    ...(channelId ? [channelKey(tenant, channelId)] : []),
  ]);
  const [broadcastItem, found, customerItems, channelItem] = [read[0], read.slice(1, 1 + n), read.slice(1 + n, 1 + 2 * n), read[1 + 2 * n]];
  const customers = new Map(customerIds.map((id, i) => [id, customerItems[i] && customerFromItem(customerItems[i])]));
  const now = Date.now();
  const due: [string, StoredRecipient][] = [];
  customerIds.forEach((id, i) => {
    const r = found[i] && storedOf(found[i]);
    if (!r || (r.recipient.status !== 'queued' && r.recipient.status !== 'sending')) return;
    if (r.recipient.status === 'sending' && r.leaseUntil !== undefined && r.leaseUntil >= now)
      verdicts.set(id, later(r.leaseUntil - now + 1000));
    else if (r.notBefore !== undefined && r.notBefore > now) verdicts.set(id, later(r.notBefore - now));
    else due.push([id, r]);
  });
  if (due.length === 0 || !broadcastItem) return { verdicts };
  const stored = stateOf(broadcastItem);
  const fannedOut = stored.broadcast.status === 'sending' && stored.fannedOut;
  const settles: { customerId: string; settle: Settle }[] = [];
  const finish = async (): Promise<Sent> => {
    await settleRecipients(tenant, broadcastId, settles, new Date());
    return { verdicts, settled: { fannedOut } };
  };
  const settleAll = (settle: Settle) => {
    for (const [customerId] of due) settles.push({ customerId, settle });
    return finish();
  };
  if (stored.broadcast.status === 'cancelled') return settleAll(settled('cancelled', 'broadcast_cancelled'));
  if (stored.broadcast.status !== 'sending') return { verdicts };
  const channel =
    channelId === stored.broadcast.channelId
      ? channelItem && (await openChannel(tenant, channelItem))
      : await channelWithSecrets(tenant, stored.broadcast.channelId);
  if (!channel) return settleAll(settled('failed', 'channel_deleted'));
  if (channel.account.status !== 'connected')
    return settleAll(settled('failed', channel.account.status === 'error' ? 'channel_error' : 'channel_disconnected'));

  const { granted, waitMs } = await takeSendSlots(tenant, channel.account._id, channel.account.ratePerSecond, due.length);
  for (const [id] of due.slice(granted)) verdicts.set(id, later(waitMs));
  const lease = Date.now() + RECIPIENT_LEASE_MS;
  const claimed = await claimRecipients(tenant, broadcastId, due.slice(0, granted), Date.now(), lease);
  for (const [id] of due.slice(0, granted)) if (!claimed.has(id)) verdicts.set(id, later(1000));
  const { broadcast } = stored;
  await Promise.all(
    due
      .filter(([id]) => claimed.has(id))
      .map(async ([customerId, r]) => {
        const customer = customers.get(customerId);
        if (!customer || customer.blocked)
          return settles.push({ customerId, settle: settled('skipped', customer ? 'customer_blocked' : 'customer_not_found', lease) });
        const attempts = r.attempts + 1;
        const key = `${broadcastId}.${customerId}`;
        const result = await providers[channel.account.type].send(channel.account, channel.secrets, {
          tenant,
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
        verdicts.set(
          customerId,
          await sendOutcome(
            result,
            { tenant, channelId: channel.account._id, key, kind: 'broadcast', recipientId: customerId },
            {
              attempts,
              sent: async (ok) => {
                const writes = [
                  ...ok.writes,
                  sendRecord(tenant, channel.account._id, key, { target: 'recipient', broadcastId, customerId }),
                ];
                settles.push({
                  customerId,
                  settle: { from: 'sending', to: 'sent', receipts: ok.receipts, stats: sentStats(ok.receipts), lease, writes },
                });
                return ACK;
              },
              retry: async (delayMs) => {
                await postponeRecipient(tenant, broadcastId, customerId, lease, Date.now() + delayMs);
                return later(delayMs);
              },
              failed: async (reason, accountError) => {
                if (accountError) await markChannelErrored(unit, tenant, channel.account._id, reason, new Date());
                settles.push({ customerId, settle: settled('failed', reason, lease) });
                return ACK;
              },
            },
          ),
        );
      }),
  );
  return finish();
};

/** Handles one batch's messages: each `start` on its own, the `recipient` ones of a broadcast together. */
export const broadcastGroup = (m: BroadcastMessage, messageId: string): string =>
  m.kind === 'start' ? messageId : `${m.tenant}#${m.broadcastId}`;

/** A message's verdict from its customers': done when all are, else back when the soonest of the others is due. */
const verdictOf = (customers: Verdict[]): Verdict => {
  const waits = customers.flatMap((v) => (v.ack ? [] : [v.delayMs]));
  return waits.length === 0 ? ACK : later(Math.min(...waits));
};

export const handleBroadcastMessages = async (messages: BroadcastMessage[]): Promise<Verdict[]> => {
  const [first] = messages;
  if (first!.kind === 'start') return [await start(direct, first!.tenant, first!.broadcastId)];
  const { tenant, broadcastId } = first!;
  const recipients = messages as RecipientMessage[];
  const chunks = await Promise.all(
    evenRuns([...new Set(recipients.flatMap(customersOf))], SEND_CHUNK).map((ids) =>
      sendToRecipients(direct, tenant, broadcastId, recipients[0]!.channelId, ids),
    ),
  );
  const settled = chunks.flatMap((c) => (c.settled ? [c.settled] : []));
  if (settled.length > 0)
    await maybeComplete(
      direct,
      tenant,
      broadcastId,
      settled.some((s) => s.fannedOut),
    );
  const verdicts = new Map(chunks.flatMap((c) => [...c.verdicts]));
  return recipients.map((m) => verdictOf(customersOf(m).map((id) => verdicts.get(id)!)));
};

/** One message on its own (as a batch of one). */
export const handleBroadcastMessage = async (m: BroadcastMessage): Promise<Verdict> => (await handleBroadcastMessages([m]))[0]!;
