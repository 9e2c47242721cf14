import { ParleyError } from './errors.js';
import type { components, paths } from './schema.js';

/** An event as the events log and the realtime socket give it: the envelope webhooks deliver. */
export type ParleyEvent = components['schemas']['Event'];
type EventsQuery = NonNullable<paths['/api/v1/events']['get']['parameters']['query']>;

/** What live updates need of the typed client (`createParleyClient`'s calls). */
interface Calls {
  post(path: '/realtime/tickets'): Promise<{ data: { ticket: { url: string } } }>;
  get(path: '/events/{id}', init: { params: { path: { id: string } } }): Promise<{ data: { event: unknown } }>;
  list(path: '/events', init: { params: { query: EventsQuery } }): AsyncIterable<unknown>;
}

/** The part of the WHATWG WebSocket this client uses: browsers' and Node 22's global, or the `ws` package's. */
interface SocketLike {
  send(data: string): void;
  close(code?: number): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
// biome-ignore lint/suspicious/noExplicitAny: browsers', Node's and the `ws` package's sockets differ in their event types
export type WebSocketConstructor = new (url: string) => any;

export interface SubscribeOptions {
  /** Event types and wildcards, as webhooks take them (`inbox.*`, `*`). */
  events: string[];
  /** Start after this event id (the events after it are replayed first, oldest first). */
  since?: string;
  /** The WebSocket to use where there is no global one (Node 20: `import { WebSocket } from 'ws'`). */
  WebSocket?: WebSocketConstructor;
  /** Stops the subscription: the iteration ends. */
  signal?: AbortSignal;
  /**
   * How far back a reconnection replays, deduplicating what was already yielded: events committed out of id
   * order (concurrent writers in the same second) are never skipped. Default 5 s.
   */
  resumeWindowMs?: number;
  /** The heartbeat: a `ping` this often keeps idle proxies (and API Gateway's 10-minute idle limit) away. Default 60 s. */
  pingIntervalMs?: number;
}

/** The socket refused the subscription (`FORBIDDEN`: the token reads none of the events; `BAD_MESSAGE`). */
export class ParleyRealtimeError extends ParleyError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const secondsOf = (id: string) => Number.parseInt(id.slice(0, 8), 16);
const idAtSeconds = (s: number) => `${Math.max(0, s).toString(16).padStart(8, '0')}${'f'.repeat(16)}`;

type Frame = { type: string; event?: ParleyEvent; eventId?: string; truncated?: boolean; code?: string; message?: string };

/** The wait before reconnecting after `failures` refused or failed sockets in a row: 0.1 s doubling, at most `maxWaitMs`. */
export const reconnectWaitMs = (failures: number, maxWaitMs: number): number => Math.min(maxWaitMs, 100 * 2 ** Math.min(failures, 8));

/** The frames of one socket, as an async queue that ends when the socket closes. */
const frames = (socket: SocketLike, signal?: AbortSignal) => {
  const queued: Frame[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: Error | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  socket.onmessage = (m) => {
    queued.push(JSON.parse(String(m.data)) as Frame);
    poke();
  };
  socket.onclose = () => {
    ended = true;
    poke();
  };
  socket.onerror = () => undefined;
  const opened = new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onclose = () => {
      ended = true;
      failure = new ParleyError('the realtime socket was refused');
      reject(failure);
      poke();
    };
  }).then(() => {
    socket.onclose = () => {
      ended = true;
      poke();
    };
  });
  signal?.addEventListener('abort', () => socket.close(1000), { once: true });
  async function* read(): AsyncGenerator<Frame> {
    for (;;) {
      while (queued.length) yield queued.shift()!;
      if (ended) return;
      await new Promise<void>((r) => (wake = r));
    }
  }
  return { opened, read };
};

/**
 * Every event the subscription names, live, as an async iterable that survives disconnections: after a drop
 * it takes a new ticket and resumes from the last event it yielded, so nothing is missed and nothing is
 * yielded twice. A truncated frame is fetched whole with `GET /events/{id}`. Revoking the token ends it with
 * the ticket's 401; a refused subscription throws `ParleyRealtimeError`.
 */
async function* subscribe(client: Calls, opts: SubscribeOptions, maxWaitMs: number): AsyncGenerator<ParleyEvent> {
  const WebSocketCtor = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!WebSocketCtor) throw new ParleyError('no WebSocket: pass one (Node 20: `import { WebSocket } from "ws"`)');
  const windowSeconds = Math.ceil((opts.resumeWindowMs ?? 5000) / 1000);
  const yielded = new Set<string>();
  let newest = opts.since;
  let since = opts.since;
  let failures = 0;
  while (!opts.signal?.aborted) {
    const { data } = await client.post('/realtime/tickets');
    const socket = new WebSocketCtor(data.ticket.url) as SocketLike;
    const { opened, read } = frames(socket, opts.signal);
    const heartbeat = setInterval(() => socket.send(JSON.stringify({ action: 'ping' })), opts.pingIntervalMs ?? 60_000);
    try {
      await opened;
      socket.send(JSON.stringify({ action: 'subscribe', events: opts.events, ...(since ? { since } : {}) }));
      for await (const frame of read()) {
        if (frame.type === 'error') throw new ParleyRealtimeError(frame.code ?? 'ERROR', frame.message ?? 'refused');
        if (frame.type === 'subscribed') failures = 0;
        if (frame.type !== 'event') continue;
        const id = frame.event?.eventId ?? frame.eventId!;
        if (yielded.has(id)) continue;
        yielded.add(id);
        if (!newest || id > newest) newest = id;
        yield frame.event ?? ((await client.get('/events/{id}', { params: { path: { id } } })).data.event as ParleyEvent);
      }
    } catch (error) {
      if (error instanceof ParleyRealtimeError || opts.signal?.aborted) throw error;
      failures++;
    } finally {
      clearInterval(heartbeat);
      socket.close(1000);
    }
    if (newest) {
      // Replay a window before the newest event, and forget what no later replay can repeat.
      const floor = secondsOf(newest) - windowSeconds;
      const resumeAt = idAtSeconds(floor - 1);
      since = opts.since && opts.since > resumeAt ? opts.since : resumeAt;
      for (const id of yielded) if (secondsOf(id) < floor - 1) yielded.delete(id);
    }
    await new Promise((r) => setTimeout(r, reconnectWaitMs(failures, maxWaitMs)));
  }
}

/**
 * `events.list()` and `realtime.subscribe()`, the events log and the realtime stream of a client. A reconnection
 * waits at most `maxRetryWaitMs`, as a retried request does.
 */
export const liveUpdates = (client: Calls, { maxRetryWaitMs }: { maxRetryWaitMs: number }) => ({
  events: {
    /** Every event of the log the query names, page after page (newest first, or after `since` oldest first). */
    list: (query: EventsQuery = {}) => client.list('/events', { params: { query } }) as AsyncIterable<ParleyEvent>,
  },
  realtime: {
    subscribe: (opts: SubscribeOptions) => subscribe(client, opts, maxRetryWaitMs),
  },
});
