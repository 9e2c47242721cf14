import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { resolve } from '../../shared/http/route-match';
import { serveSite } from './static-site';
import type { Wiring } from '../../functions/wiring/types';
import { invoke } from './lambda';
import { attachRealtime, REALTIME_PATH } from './realtime';

/** API Gateway HTTP APIs refuse payloads over 10 MB before any function runs. */
const GATEWAY_MAX_BYTES = 10 * 1024 * 1024;

const readBody = async (req: IncomingMessage): Promise<Buffer | 'too-large'> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

const joinHeaders = (req: IncomingMessage): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return out;
};

/** Own properties for every name, `__proto__` included (an assignment would set the prototype and lose it), as API Gateway's JSON gives them. */
const queryOf = (url: URL): Record<string, string> | undefined => {
  const out = Object.fromEntries([...new Set(url.searchParams.keys())].map((key) => [key, url.searchParams.getAll(key).join(',')]));
  return Object.keys(out).length ? out : undefined;
};

const buildEvent = (
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  params: Record<string, string>,
): APIGatewayProxyEventV2 => {
  const now = new Date();
  const headers = joinHeaders(req);
  const text = body.toString('utf8');
  const binary = body.length > 0 && !Buffer.from(text, 'utf8').equals(body);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: queryOf(url),
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (binary ? body.toString('base64') : text) : undefined,
    isBase64Encoded: binary,
  };
};

const send = (res: ServerResponse, result: APIGatewayProxyStructuredResultV2) => {
  res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
  res.end(result.body && result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
};

const gatewayError = (statusCode: number, code: string, message: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ success: false, error: { code, message } }),
});

/** A local API Gateway HTTP API: one warm handler per route, `$default` to the wiring's fallback; the static site beside it. */
export const startGateway = async (wiring: Wiring, port: number): Promise<{ url: string; server: Server; close(): Promise<void> }> => {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (realtime && (await realtime.manage(req, url, res))) return;
      if (await serveSite(req.method ?? 'GET', url.pathname, res)) return;
      const body = await readBody(req);
      if (body === 'too-large') return send(res, gatewayError(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds the gateway limit'));
      const { match } = resolve(wiring.routes, req.method ?? 'GET', url.pathname);
      const spec = match?.route ?? wiring.fallback;
      const routeKey = match ? `${match.route.method} ${match.route.path}` : '$default';
      send(
        res,
        await invoke<APIGatewayProxyStructuredResultV2>(spec, { kind: 'http' }, buildEvent(req, url, body, routeKey, match?.params ?? {})),
      );
    } catch (error) {
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'function crashed', error: String(error) })}\n`);
      send(res, gatewayError(500, 'INTERNAL_ERROR', 'Internal server error'));
    }
  });
  const realtime = wiring.socket && attachRealtime(server, wiring.socket);
  server.keepAliveTimeout = 65_000;
  // Node refuses a request line and headers over 16 KB before any handler runs; answer in the error wrapper.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      success: false,
      error: { code: 'BAD_REQUEST', message: tooLarge ? 'Request line and headers exceed 16 KB' : 'Malformed HTTP request' },
    });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const { port: bound } = server.address() as { port: number };
  // Tickets name the socket's URL and the push function posts through the management API, both on this port.
  process.env.REALTIME_URL = `ws://127.0.0.1:${bound}${REALTIME_PATH}`;
  process.env.REALTIME_MANAGEMENT_ENDPOINT = `http://127.0.0.1:${bound}`;
  return { url: `http://127.0.0.1:${bound}`, server, close: async () => realtime?.close() };
};
