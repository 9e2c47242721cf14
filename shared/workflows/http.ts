import { STATUS_CODES } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import type { Outcome } from '../domain/workflows/interpreter';
import { classifyAddress, isAllowedTarget } from '../outbound/ssrf';
import { agentFor, bareHost, DELIVERY_TIMEOUT_MS, hostOf } from '../outbound/https';
import { inSubsegment } from '../observability/tracing';

/** A response body kept in the execution state is cut here (the state lives in one 400 KB item). */
const MAX_BODY_BYTES = 32 * 1024;

export interface HttpCall {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  idempotencyKey: string;
  allowLoopback: boolean;
}

const failure = (message: string): Outcome => ({ ok: false, message });

const errorMessage = (error: NodeJS.ErrnoException): string => {
  if (error.code === 'SSRF_BLOCKED') return 'SSRF blocked: the target address is not allowed';
  if (error.code === 'ECONNREFUSED') return 'ECONNREFUSED';
  return error.code ? `${error.code}: ${error.message}` : error.message;
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * An `http_request` node's call: HTTPS only, SSRF-safe exactly like webhook deliveries (pinned lookup, no
 * redirects followed), 10 s for the whole exchange. A non-2xx answer fails as `HTTP <status> <reason>`.
 */
const send = (call: HttpCall): Promise<Outcome> => {
  const target = new URL(call.url);
  if (target.protocol !== 'https:') return Promise.resolve(failure(`Invalid URL: ${call.url} is not https`));
  const host = bareHost(target);
  if (isIP(host) && !isAllowedTarget(classifyAddress(host), call.allowLoopback))
    return Promise.resolve(failure('SSRF blocked: the target address is not allowed'));
  const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  const headers = {
    ...(body !== undefined && typeof call.body !== 'string' ? { 'Content-Type': 'application/json' } : {}),
    'User-Agent': 'Parley-Workflows/1.0',
    ...call.headers,
    'Idempotency-Key': call.idempotencyKey,
    ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(target, { method: call.method, headers, agent: agentFor(call.allowLoopback) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_BODY_BYTES) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
        finish(
          status >= 200 && status < 300
            ? { ok: true, output: { status, body: parsed(text) } }
            : failure(`HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim()),
        );
      });
      res.on('error', (error) => finish(failure(errorMessage(error))));
    });
    const timer = setTimeout(() => {
      finish(failure(`ETIMEDOUT: no response within ${DELIVERY_TIMEOUT_MS / 1000} s`));
      req.destroy();
    }, DELIVERY_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) => finish(failure(errorMessage(error))));
    req.end(body);
  });
};

/** The call, traced as its own subsegment. */
export const httpRequest = (call: HttpCall): Promise<Outcome> => inSubsegment(`${call.method} ${hostOf(call.url)}`, () => send(call));
