import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { testTls } from './tls';

export interface Received {
  /** ms since the epoch when the request arrived. */
  at: number;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
}

/** What the receiver answers: a status (with headers and a body, after `delayMs`), or `hang` to hold the request open without answering. */
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number; body?: string } | 'hang';

/**
 * A real HTTPS webhook receiver on 127.0.0.1 with the run's trusted self-signed certificate. `reply`
 * decides each answer; every request is recorded with its raw body for signature checks.
 */
export const startReceiver = async (reply: (req: Received, index: number) => Reply = () => ({ status: 200 })) => {
  const received: Received[] = [];
  let respond = reply;
  const waiters = new Set<() => void>();
  const server: Server = createServer(testTls(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      for (const w of waiters) w();
      const answer = respond(entry, received.length - 1);
      if (answer === 'hang') return;
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };

  /** Resolves once `predicate` holds over the requests received so far, or rejects after `timeoutMs`. */
  const waitUntil = (predicate: (all: Received[]) => boolean, timeoutMs = 30_000): Promise<Received[]> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(received)) return;
        cleanup();
        resolve([...received]);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} requests)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    url: `https://127.0.0.1:${port}/hook`,
    port,
    received,
    setReply: (next: typeof reply) => (respond = next),
    waitFor: (count: number, timeoutMs?: number) => waitUntil((all) => all.length >= count, timeoutMs),
    waitUntil,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
