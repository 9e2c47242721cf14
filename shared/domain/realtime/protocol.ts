import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { built } from '../built';

/**
 * The realtime socket's protocol (docs/guide/realtime.md). A client sends `subscribe` once, and `ping` as often
 * as it likes; the server answers with the frames below.
 */
const MAX_PATTERNS = 50;

/** API Gateway's WebSocket message limit: a larger event frame goes out as its id alone. */
const FRAME_LIMIT_BYTES = 128 * 1024;

/** Sockets one token may hold open at once, over every workspace and mode. */
export const SOCKETS_PER_TOKEN = 100;

/** Events held for one socket while it replays its backlog; past that it cannot keep up and is closed. */
export const MAX_PENDING = 1000;

/** How many of the latest replayed events a socket remembers, so a late live copy of one is not sent twice. */
const SEAM_SIZE = 200;

/**
 * How long after a subscription its replay waits before it reads the events log. The log is a global secondary
 * index, which DynamoDB updates asynchronously (typically within a fraction of a second): an event that
 * committed just before the subscription, and whose push ran before it too, is replayed only once the index
 * holds it (docs/guide/realtime.md, "The seam").
 */
const INDEX_SETTLE_MS = 1000;

/** When a replay may read the events log: the index has settled for every event committed before the subscription. */
export const replayReadAt = (subscribedAt: string, now: Date): Date =>
  new Date(Math.max(now.getTime(), Date.parse(subscribedAt) + INDEX_SETTLE_MS));

/** The bus event that asks the push function to replay a socket's backlog and take it live. */
export const SOCKET_SOURCE = 'parley.realtime';
export const SUBSCRIBED_DETAIL_TYPE = 'SocketSubscribed';

const Subscribe = /* @__PURE__ */ built(() =>
  z.strictObject({
    action: z.literal('subscribe'),
    events: z.array(z.string().max(200)).min(1).max(MAX_PATTERNS),
    since: z.string().regex(OBJECT_ID, 'Must be an event id').optional(),
  }),
);
const Ping = /* @__PURE__ */ built(() => z.strictObject({ action: z.literal('ping') }));
const Message = /* @__PURE__ */ built(() => z.discriminatedUnion('action', [Subscribe, Ping]));
export type ClientMessage = z.infer<typeof Message>;

export type Frame =
  | { type: 'subscribed' }
  | { type: 'pong' }
  | { type: 'error'; code: 'BAD_MESSAGE' | 'ALREADY_SUBSCRIBED' | 'FORBIDDEN'; message: string };

export const frame = (f: Frame): string => JSON.stringify(f);

/** A client's message, or the error frame it earns (the socket stays open). */
export const parseMessage = (body: string | undefined, isPattern: (p: string) => boolean, oldestSince: string): ClientMessage | Frame => {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return { type: 'error', code: 'BAD_MESSAGE', message: 'A message is a JSON object such as {"action":"subscribe","events":["*"]}' };
  }
  const parsed = Message.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { type: 'error', code: 'BAD_MESSAGE', message: `${issue.path.join('.') || 'message'}: ${issue.message}` };
  }
  if (parsed.data.action === 'subscribe') {
    const unknown = parsed.data.events.find((p) => !isPattern(p));
    if (unknown !== undefined)
      return { type: 'error', code: 'BAD_MESSAGE', message: `events: ${JSON.stringify(unknown)} is no catalog event type or wildcard` };
    if (parsed.data.since !== undefined && parsed.data.since < oldestSince)
      return { type: 'error', code: 'BAD_MESSAGE', message: 'since: older than the 30-day events log; list GET /events first' };
  }
  return parsed.data;
};

/**
 * The frame of one event: its stored bytes inside `{"type":"event","event":…}`, or, past API Gateway's
 * message limit, `{"type":"event","eventId":…,"truncated":true}` to be read with GET /events/{id}.
 */
export const eventFrame = (eventId: string, payload: string): string => {
  const whole = `{"type":"event","event":${payload}}`;
  return Buffer.byteLength(whole) <= FRAME_LIMIT_BYTES ? whole : JSON.stringify({ type: 'event', eventId, truncated: true });
};

/** Whether a subscription (already narrowed to what its token may read) passes an event type. */
export const passes = (s: { exact: readonly string[] | null; prefixes: readonly string[] | null }, eventType: string): boolean =>
  (s.exact ?? []).includes(eventType) || (s.prefixes ?? []).some((p) => eventType.startsWith(p));

/** The latest replayed ids worth remembering at the seam. */
export const seamOf = (replayed: readonly string[]): string[] => replayed.slice(-SEAM_SIZE);
