import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ValidationError } from '../domain/errors';
import { classifyError, classifyResponse, type AttemptOutcome } from '../domain/webhooks/classify';
import { classifyAddress, isAllowedTarget } from './ssrf';
import { LOGGED_BODY_BYTES } from '../domain/webhooks/logged-body';
import { inSubsegment } from '../observability/tracing';

/** Subscribers must answer within this; the whole attempt (DNS, connect, TLS, response) shares it. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const blocked = () => Object.assign(new Error('target address is not allowed'), { code: 'SSRF_BLOCKED' });

export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** A URL's host for a trace's subsegment name (never its path or query, which may carry secrets). */
export const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).host : 'invalid-url');

/** Every address `host` resolves to, when all of them are allowed targets; else SSRF_BLOCKED. */
const allowedAddresses = (host: string, allowLoopback: boolean): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return reject(error);
      if (addresses.length === 0 || addresses.some((a) => !isAllowedTarget(classifyAddress(a.address), allowLoopback)))
        return reject(blocked());
      resolve(addresses);
    }),
  );

/**
 * A DNS lookup that refuses the connection unless every address the name resolves to is allowed, and
 * hands the socket exactly the address it checked: the target is pinned, so a rebinding name cannot
 * swap in a private address between the check and the connect.
 */
const safeLookup = (allowLoopback: boolean): LookupFunction =>
  ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    allowedAddresses(hostname, allowLoopback).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)),
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;

/** The address a connection to `host` must use, checked as `safeLookup` checks it: for clients that take an address, not a lookup. */
export const pinnedAddress = async (host: string, allowLoopback: boolean): Promise<string> =>
  (await allowedAddresses(host, allowLoopback))[0]!.address;

/** The creation-time check: 422 on `path` (default `url`) when the URL is, or resolves to, a forbidden address. */
export const assertAllowedTarget = async (url: string, allowLoopback: boolean, path = 'url'): Promise<void> => {
  const fail = (message: string) => new ValidationError([{ path, message }]);
  if (!URL.canParse(url)) throw fail('Not a valid host name or URL');
  const host = bareHost(new URL(url));
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) =>
          error ? reject(fail('Host name does not resolve')) : resolve(found.map((a) => a.address)),
        ),
      );
  if (addresses.length === 0 || addresses.some((a) => !isAllowedTarget(classifyAddress(a), allowLoopback))) {
    throw fail('Must not point at a loopback, private, link-local or metadata address');
  }
};

const agents = new Map<boolean, Agent>();
/** A keep-alive HTTPS agent whose every connection goes through `safeLookup`. */
export const agentFor = (allowLoopback: boolean) => {
  let agent = agents.get(allowLoopback);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 64, lookup: safeLookup(allowLoopback) });
    agents.set(allowLoopback, agent);
  }
  return agent;
};

export interface SendResult {
  outcome: AttemptOutcome;
  /** Milliseconds until the response status arrived (or the attempt failed). */
  latency: number;
  /** The first LOGGED_BODY_BYTES (and one more, to tell a cut) of the response body, when a response came. */
  responseBody?: Buffer;
}

/**
 * One HTTPS POST of exactly `body`: redirects are never followed, nothing but loopback (when allowed)
 * or public addresses is ever connected to, and the attempt is abandoned after DELIVERY_TIMEOUT_MS. The
 * response body is read up to LOGGED_BODY_BYTES + 1 within the same time (for the delivery log); the rest is drained.
 */
const post = (
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowLoopback: boolean; timeoutMs?: number },
): Promise<SendResult> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = bareHost(target);
  if (isIP(host) && !isAllowedTarget(classifyAddress(host), opts.allowLoopback)) {
    return Promise.resolve({ outcome: classifyError('SSRF_BLOCKED'), latency: 0 });
  }
  return new Promise((resolve) => {
    let settled = false;
    let answered: { outcome: AttemptOutcome; latency: number; chunks: Buffer[]; size: number } | undefined;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const finishAnswered = () =>
      answered && finish({ outcome: answered.outcome, latency: answered.latency, responseBody: Buffer.concat(answered.chunks) });
    const req = request(
      target,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: agentFor(opts.allowLoopback) },
      (res) => {
        const retryAfter = res.headers['retry-after'];
        const got = {
          outcome: classifyResponse(res.statusCode ?? 0, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
          latency: elapsed(),
          chunks: [] as Buffer[],
          size: 0,
        };
        answered = got;
        // Drain the rest so the connection can be reused, but never wait on it for long.
        const cutoff = setTimeout(() => res.destroy(), opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
        res
          .on('data', (chunk: Buffer) => {
            if (got.size > LOGGED_BODY_BYTES) return;
            got.chunks.push(chunk);
            got.size += chunk.length;
            if (got.size > LOGGED_BODY_BYTES) finishAnswered();
          })
          .on('end', finishAnswered)
          .on('error', finishAnswered)
          .on('close', () => {
            clearTimeout(cutoff);
            finishAnswered();
          });
      },
    );
    const timer = setTimeout(() => {
      if (answered) finishAnswered();
      else finish({ outcome: classifyError('TIMEOUT'), latency: elapsed() });
      req.destroy();
    }, opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) =>
      answered ? finishAnswered() : finish({ outcome: classifyError(error.code), latency: elapsed() }),
    );
    req.end(body);
  });
};

/** One outbound POST (a webhook delivery, a workflow notification, an API channel's send), traced as its own subsegment. */
export const postWebhook = (
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowLoopback: boolean; timeoutMs?: number },
): Promise<SendResult> => inSubsegment(`POST ${hostOf(url)}`, () => post(url, body, headers, opts));
