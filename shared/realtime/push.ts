import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { connections } from '../aws/connections';
import { justAfter, lastIdAt } from '../domain/events/log-range';
import { eventFrame, frame, MAX_PENDING, passes, replayReadAt, seamOf } from '../domain/realtime/protocol';
import { envelopeTenant } from '../events/envelope';
import type { OutboxEvent } from '../events/from-bus';
import { replayEvents } from '../data/events-log';
import { eventPayload } from '../data/outbox';
import {
  claimReplay,
  forgetConnection,
  goLive,
  holdPending,
  readConnection,
  tenantConnections,
  tenantHasSockets,
  tokenConnectionIds,
  type Connection,
} from '../data/realtime';
import { mapLimit } from '../domain/map-limit';
import { log } from '../log';

/** PostToConnection calls in flight at once: a socket that stops reading holds one slot, never the others. */
const PUSH_CONCURRENCY = 32;

/** Sends a frame; false when the socket is gone (it is forgotten then, as API Gateway already has). */
const post = async (connectionId: string, data: string): Promise<boolean> => {
  try {
    await connections().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(data) }));
    return true;
  } catch (error) {
    if (!(error instanceof GoneException)) throw error;
    await forgetConnection(connectionId);
    return false;
  }
};

const close = async (connectionId: string) => {
  try {
    await connections().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if (!(error instanceof GoneException)) throw error;
  }
  await forgetConnection(connectionId);
};

/** Revoking a token closes every socket it opened. */
const closeTokenSockets = async (tokenId: string) => mapLimit(await tokenConnectionIds(tokenId), PUSH_CONCURRENCY, close);

const wants = (c: Connection, eventId: string, eventType: string) =>
  c.state !== 'connected' && passes(c, eventType) && (c.since === null || eventId > c.since) && !(c.seam ?? []).includes(eventId);

/**
 * A socket a push failed for (the management API erred, the table refused) is closed, never skipped: its
 * client reconnects with `since` and is replayed what it missed, where a silent skip would be a gap.
 */
const orClose = (connectionId: string, push: () => Promise<unknown>) =>
  push().catch(async (error: unknown) => {
    log.warn('realtime push failed: closing the socket so its client resumes', { connectionId, error: String(error) });
    await close(connectionId);
  });

/** A live event for one socket: sent now, or held while the socket still replays its backlog. */
const deliverLive = async (c: Connection, eventId: string, data: string) => {
  if (c.state === 'replaying') {
    const held = await holdPending(c, eventId, MAX_PENDING);
    log.debug('realtime push to a replaying socket', { eventId, connectionId: c.connectionId, held });
    if (held === 'held') return;
    if (held === 'full') return close(c.connectionId);
    const now = await readConnection(c.connectionId);
    if (!now || (now.seam ?? []).includes(eventId)) return;
  }
  await post(c.connectionId, data);
};

/** An outbox event from the bus: to every socket of its tenant whose subscription passes it. */
export const pushEvent = async ({ envelope, payload }: OutboxEvent): Promise<void> => {
  const { eventId, eventType } = envelope;
  if (eventType === 'auth.token.revoked') await closeTokenSockets((envelope.data.token as { _id: string })._id);
  const tenant = envelopeTenant(envelope);
  if (!(await tenantHasSockets(tenant, new Date()))) return log.debug('realtime push: the tenant holds no socket', { eventId });
  const connections = await tenantConnections(tenant);
  const sockets = connections.filter((c) => wants(c, eventId, eventType));
  log.debug('realtime push', () => ({
    eventId,
    sockets: connections.map((c) => `${c.connectionId} ${c.state}`),
    wanted: sockets.map((c) => c.connectionId),
  }));
  if (sockets.length === 0) return;
  const data = eventFrame(eventId, payload);
  await mapLimit(sockets, PUSH_CONCURRENCY, (c) => orClose(c.connectionId, () => deliverLive(c, eventId, data)));
};

/**
 * A socket that just subscribed: `subscribed`, then with `since` its backlog oldest first (read once the
 * index has settled for every event committed before the subscription), then it goes live
 * and the events that arrived live meanwhile follow, each once: an event is sent by the replay or held, and
 * one both replayed and held is sent by the replay only. The latest replayed ids stay on the socket (its
 * seam), so a live copy that reaches the bus after the switch is not sent again.
 */
export const replaySocket = async (connectionId: string, now: Date): Promise<void> => {
  await orClose(connectionId, () => replay(connectionId, now));
};

const replay = async (connectionId: string, now: Date): Promise<void> => {
  const c = await readConnection(connectionId);
  if (c?.state !== 'replaying') return;
  // A replay begun before may have sent part of the backlog: its client resumes with `since` instead.
  if (!(await claimReplay(c))) return close(connectionId);
  if (!(await post(connectionId, frame({ type: 'subscribed' })))) return;
  const replayed: string[] = [];
  if (c.since !== null) {
    const readAt = replayReadAt(c.subscribedAt ?? now.toISOString(), now);
    await sleep(Math.max(0, readAt.getTime() - now.getTime()));
    const types = { exact: c.exact ?? [], prefixes: c.prefixes ?? [] };
    for await (const e of replayEvents(c.tenant, [justAfter(c.since), lastIdAt(readAt.getTime())], types)) {
      if (!(await post(connectionId, eventFrame(e.eventId, e.payload)))) return;
      replayed.push(e.eventId);
    }
  }
  const held = await goLive(c, seamOf(replayed));
  log.debug('realtime replay done', { connectionId, replayed: replayed.length, held: held?.length ?? 'gone' });
  if (!held) return;
  const sent = new Set(replayed);
  for (const eventId of [...new Set(held)].sort()) {
    if (sent.has(eventId)) continue;
    const body = await eventPayload(c.tenant, eventId);
    if (body && !(await post(connectionId, eventFrame(eventId, body)))) return;
  }
};
