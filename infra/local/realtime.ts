import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { SocketSpec } from '../../functions/wiring/types';
import { invoke } from './lambda';

/**
 * The local API Gateway WebSocket API, on the HTTP gateway's port: `/realtime` upgrades to a WebSocket and runs
 * the wiring's `$connect`, `$default` and `$disconnect` handlers with API Gateway's WebSocket events, and
 * `/@connections/{id}` is its management API (PostToConnection, GetConnection, DeleteConnection), reached by the
 * functions' own SDK client behind the IAM guard. It applies API Gateway's limits: 128 KB messages either way
 * (a larger client message closes the socket with 1009, a larger post is refused with 413), 10 minutes idle,
 * 2 hours per connection, and a closed connection answers GoneException (410).
 */
export const REALTIME_PATH = '/realtime';
const MANAGEMENT_PREFIX = '/@connections/';
const MESSAGE_LIMIT_BYTES = 128 * 1024;
const IDLE_MS = 10 * 60_000;
const MAX_AGE_MS = 2 * 3600_000;
/**
 * A socket whose client stopped reading: past this much unsent data it is closed and later posts answer 410,
 * so a stalled reader costs the push function nothing (AWS documents no figure; this stand-in's choice).
 */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

interface Live {
  ws: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  idle?: NodeJS.Timeout;
}

const connectionIdOf = () => `${randomBytes(11).toString('base64url')}=`;

const context = (connectionId: string, routeKey: string, eventType: string, live: Pick<Live, 'connectedAt' | 'sourceIp' | 'userAgent'>) => {
  const now = Date.now();
  return {
    routeKey,
    eventType,
    messageDirection: 'IN',
    stage: '$default',
    connectionId,
    connectedAt: live.connectedAt,
    requestTimeEpoch: now,
    requestTime: new Date(now).toUTCString(),
    requestId: randomUUID(),
    extendedRequestId: randomUUID(),
    apiId: 'local',
    domainName: '127.0.0.1',
    identity: { sourceIp: live.sourceIp, userAgent: live.userAgent },
  };
};

const queryOf = (url: URL) => {
  const out = Object.fromEntries(url.searchParams);
  return Object.keys(out).length ? out : undefined;
};

const refuse = (socket: Duplex, status: number) => {
  const body = JSON.stringify({ message: status === 429 ? 'Too Many Requests' : 'Forbidden' });
  socket.end(
    `HTTP/1.1 ${status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

const managementError = (res: ServerResponse, status: number, type: string, message: string) => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
};

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export interface LocalRealtime {
  /** Answers a request for the management API; false when the path is not its. */
  manage(req: IncomingMessage, url: URL, res: ServerResponse): Promise<boolean>;
  /** Closes every socket and resolves once their `$disconnect` handlers have run (before the table they write to stops). */
  close(): Promise<void>;
}

export const attachRealtime = (server: Server, spec: SocketSpec): LocalRealtime => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MESSAGE_LIMIT_BYTES });
  const sockets = new Map<string, Live>();
  const disconnecting = new Set<Promise<unknown>>();
  const log = (fields: Record<string, unknown>) => process.stderr.write(`${JSON.stringify({ level: 'error', ...fields })}\n`);

  const touch = (live: Live) => {
    live.lastActiveAt = Date.now();
    clearTimeout(live.idle);
    live.idle = setTimeout(() => live.ws.close(1001, 'Going away'), IDLE_MS).unref();
  };

  const run = (fn: SocketSpec[keyof SocketSpec], event: unknown) =>
    invoke<{ statusCode?: number; body?: string } | undefined>(fn, { kind: 'http' }, event);

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== REALTIME_PATH) return refuse(socket, 404);
    const connectionId = connectionIdOf();
    const live = {
      connectedAt: Date.now(),
      sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
      userAgent: String(req.headers['user-agent'] ?? ''),
    };
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
    run(spec.connect, {
      requestContext: context(connectionId, '$connect', 'CONNECT', live),
      headers,
      queryStringParameters: queryOf(url),
      isBase64Encoded: false,
    })
      .then((answer) => {
        const status = answer?.statusCode ?? 200;
        if (status < 200 || status > 299) return refuse(socket, status);
        wss.handleUpgrade(req, socket, head, (ws) => opened(connectionId, ws, live));
      })
      .catch((error: unknown) => {
        log({ msg: '$connect crashed', error: String(error) });
        refuse(socket, 500);
      });
  });

  const opened = (connectionId: string, ws: WebSocket, info: Omit<Live, 'ws' | 'lastActiveAt'>) => {
    const live: Live = { ...info, ws, lastActiveAt: Date.now() };
    sockets.set(connectionId, live);
    touch(live);
    const maxAge = setTimeout(() => ws.close(1001, 'Going away'), MAX_AGE_MS).unref();
    // API Gateway runs a connection's messages through its route one at a time, in order.
    let queue = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      touch(live);
      queue = queue.then(async () => {
        try {
          const answer = await run(spec.default, {
            requestContext: { ...context(connectionId, '$default', 'MESSAGE', live), messageId: randomUUID() },
            body: isBinary ? Buffer.from(data as Buffer).toString('base64') : data.toString(),
            isBase64Encoded: isBinary,
          });
          if (answer?.body && ws.readyState === WebSocket.OPEN) ws.send(answer.body);
        } catch (error) {
          log({ msg: '$default crashed', connectionId, error: String(error) });
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ message: 'Internal server error', connectionId }));
        }
      });
    });
    ws.on('close', (code, reason) => {
      clearTimeout(maxAge);
      clearTimeout(live.idle);
      sockets.delete(connectionId);
      const disconnected = run(spec.disconnect, {
        requestContext: {
          ...context(connectionId, '$disconnect', 'DISCONNECT', live),
          disconnectStatusCode: code,
          disconnectReason: reason.toString(),
        },
        isBase64Encoded: false,
      }).catch((error: unknown) => log({ msg: '$disconnect crashed', connectionId, error: String(error) }));
      disconnecting.add(disconnected);
      void disconnected.finally(() => disconnecting.delete(disconnected));
    });
  };

  const manage = async (req: IncomingMessage, url: URL, res: ServerResponse): Promise<boolean> => {
    if (!url.pathname.startsWith(MANAGEMENT_PREFIX)) return false;
    const connectionId = decodeURIComponent(url.pathname.slice(MANAGEMENT_PREFIX.length));
    const live = sockets.get(connectionId);
    const body = await readBody(req);
    if (!live || live.ws.readyState !== WebSocket.OPEN) {
      managementError(res, 410, 'GoneException', `Connection ${connectionId} is gone`);
      return true;
    }
    if (req.method === 'POST') {
      if (body.length > MESSAGE_LIMIT_BYTES) {
        managementError(res, 413, 'PayloadTooLargeException', `Message of ${body.length} bytes exceeds ${MESSAGE_LIMIT_BYTES}`);
        return true;
      }
      if (live.ws.bufferedAmount > MAX_UNSENT_BYTES) {
        live.ws.terminate();
        managementError(res, 410, 'GoneException', `Connection ${connectionId} is gone`);
        return true;
      }
      // API Gateway sends a posted message as a text frame (a browser's `event.data` is a string, not a Blob).
      live.ws.send(body, { binary: false });
      touch(live);
      res.writeHead(200).end();
    } else if (req.method === 'DELETE') {
      live.ws.close(1001, 'Going away');
      res.writeHead(204).end();
    } else if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          connectedAt: new Date(live.connectedAt).toISOString(),
          lastActiveAt: new Date(live.lastActiveAt).toISOString(),
          identity: { sourceIp: live.sourceIp, userAgent: live.userAgent },
        }),
      );
    } else managementError(res, 404, 'NotFoundException', 'No such operation');
    return true;
  };

  return {
    manage,
    close: async () => {
      const closed = [...sockets.values()].map(({ ws }) => new Promise((r) => ws.once('close', r)));
      for (const { ws } of sockets.values()) ws.terminate();
      await Promise.all(closed);
      await Promise.all(disconnecting);
      wss.close();
    },
  };
};
