import { WebSocket } from 'ws';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { outboxItem } from '../../shared/data/outbox';
import { MAX_TRANSACTION_WRITES } from '../../shared/data/transact';
import { direct } from '../../shared/data/unit';
import { buildEnvelope } from '../../shared/events/envelope';
import { objectId } from '../../shared/ids';
import type { Client } from './api';

interface Frame {
  type: string;
  event?: { eventId: string; eventType: string; workspaceId: string; livemode: boolean; data: Record<string, unknown> };
  eventId?: string;
  truncated?: boolean;
  code?: string;
  message?: string;
}

/** A real WebSocket client of the local realtime API, recording every frame and how the socket ended. */
export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  /** Event ids in the order they arrived. */
  eventIds(): string[];
  send(message: unknown): void;
  /** Resolves once `predicate` holds for the frames received (polled on each frame), or rejects after `ms`. */
  until(predicate: (frames: Frame[]) => boolean, ms?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export const ticketFor = async (api: Client): Promise<{ ticket: string; url: string; expiresAt: string }> => {
  const res = await api.post('/api/v1/realtime/tickets');
  if (res.status !== 201) throw new Error(`ticket: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.ticket;
};

/** Opens a socket at `url`; resolves with it once open, or rejects with the HTTP status the handshake was refused with. */
export const openSocket = (url: string): Promise<TestSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    ws.on('message', (data, isBinary) => {
      // API Gateway posts text frames; a binary one would reach a browser as a Blob its client cannot parse.
      frames.push(isBinary ? { type: 'binary frame' } : (JSON.parse(data.toString()) as Frame));
      for (const w of waiters) w();
    });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.on('close', (code, reason) => r({ code, reason: reason.toString() })),
    );
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.on('error', (error) => reject(error));
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        closed,
        eventIds: () => frames.filter((f) => f.type === 'event').map((f) => f.event?.eventId ?? f.eventId!),
        send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
        until: (predicate, ms = 60_000) =>
          new Promise<void>((done, fail) => {
            const check = () => {
              if (!predicate(frames)) return;
              waiters.delete(check);
              clearTimeout(timer);
              done();
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out after ${ms} ms with ${frames.length} frames: ${JSON.stringify(frames.slice(-3))}`));
            }, ms);
            waiters.add(check);
            check();
          }),
        close: async () => {
          if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
          await closed;
        },
      }),
    );
  });

/** A socket of the caller, subscribed (the `subscribed` frame received). */
export const subscribed = async (api: Client, events: string[], since?: string): Promise<TestSocket> => {
  const socket = await openSocket((await ticketFor(api)).url);
  socket.send({ action: 'subscribe', events, ...(since ? { since } : {}) });
  await socket.until((f) => f.some((x) => x.type === 'subscribed' || x.type === 'error'));
  return socket;
};

const customerEvent = (tenant: Tenant, i: number) =>
  buildEnvelope('customer.contact.created', tenant, { contact: { _id: objectId(), name: `Load ${i}` } });

/** Writes `n` customer events through the outbox (one transaction each, `concurrency` at once); answers their ids. */
export const writeCustomers = async (tenant: Tenant, n: number, concurrency: number) => {
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (ids.length < n) {
        const event = customerEvent(tenant, ids.length);
        ids.push(event.eventId);
        await direct.commit([outboxItem(event)]);
      }
    }),
  );
  return ids;
};

/** Writes `n` customer events in transactions as full as DynamoDB takes them. */
export const writeBatched = async (tenant: Tenant, n: number) => {
  for (let done = 0; done < n; done += MAX_TRANSACTION_WRITES) {
    const size = Math.min(MAX_TRANSACTION_WRITES, n - done);
    await direct.commit(Array.from({ length: size }, (_, i) => outboxItem(customerEvent(tenant, done + i))));
  }
};

/** Every customer event after `since`, oldest first, from the log. */
export const logIdsSince = async (api: Client, since: string) => {
  const ids: string[] = [];
  let cursor = '';
  for (;;) {
    const { body } = await api.get(`/api/v1/events?since=${since}&types=customer.*&limit=100${cursor && `&cursor=${cursor}`}`);
    ids.push(...body.data.events.map((e: { eventId: string }) => e.eventId));
    if (!body.data.pagination.nextCursor) return ids;
    cursor = body.data.pagination.nextCursor;
  }
};
