import type { Pluggable } from '@smithy/types';

/**
 * Middleware added to every AWS client this code base creates. Nothing registers any on AWS; the local
 * runtime registers the checks that make it refuse what AWS would refuse (IAM grants, service limits).
 */
const plugins: Pluggable<any, any>[] = [];

export const registerClientPlugin = (plugin: Pluggable<any, any>): void => {
  plugins.push(plugin);
};

/** AWS credentials as the SDK's signers take them. */
export interface SigningIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Whose credentials sign a call, a presigned URL or a POST policy. On AWS each function's container holds its
 * own role's credentials, so nothing registers this. The local runtime runs every function in one process and
 * registers the running function's role session, so what a function signs names it, as S3 then sees it.
 */
let signingIdentity: (() => SigningIdentity | undefined) | undefined;

export const registerSigningIdentity = (current: () => SigningIdentity | undefined): void => {
  signingIdentity = current;
};

/**
 * Which function's container this is, for what a container keeps between invocations (a key read once): on
 * AWS a process is one function's, so there is one; locally each function's role session has its own.
 */
export const containerOf = (): string => signingIdentity?.()?.accessKeyId ?? '';

type Credentials = (options?: unknown) => Promise<SigningIdentity>;

/** The name the SDK's clients give their logger middleware. */
export const LOGGER_MIDDLEWARE = 'loggerMiddleware';

/**
 * `client` without the SDK's logger middleware. No client here is given a logger, and with the SDK's no-op
 * one all that middleware does is filter each call's input and output through their schemas for sensitive
 * members (1.4 % of a test process's CPU under the schema fuzz).
 */
export const withoutSdkLogging = <C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C => {
  client.middlewareStack.remove(LOGGER_MIDDLEWARE);
  return client;
};

/** `client` with the registered plugins, and without the SDK's logger middleware. */
export const withPlugins = <
  C extends { middlewareStack: { use(p: Pluggable<any, any>): void; remove(name: string): boolean }; config: object },
>(
  client: C,
): C => {
  withoutSdkLogging(client);
  for (const plugin of plugins) client.middlewareStack.use(plugin);
  const current = signingIdentity;
  if (current) {
    // An accessor, not an assignment: the SDK's setter would memoize the provider, and the caller changes per call.
    const own = (client.config as { credentials: Credentials }).credentials;
    const credentials: Credentials = async (options) => current() ?? own(options);
    Object.defineProperty(client.config, 'credentials', { get: () => credentials, enumerable: true, configurable: true });
  }
  return client;
};

/**
 * Which connection pool a call belongs to. On AWS each function runs in its own container with its own
 * clients, so nothing registers this and every client is made once. The local runtime runs every function
 * in one process and registers lanes, so work of one kind (a fan-out burst) cannot queue another kind's
 * calls (an API request's) behind it in one shared pool.
 */
export interface ClientLanes {
  current(): string;
  maxSockets(lane: string): number;
}

let lanes: ClientLanes | undefined;

export const registerClientLanes = (registered: ClientLanes): void => {
  lanes = registered;
};

/** Connection pool options for `new XClient({ requestHandler })`; undefined keeps the SDK's default pool. */
export type PoolOptions = { httpAgent: { maxSockets: number; keepAlive: true } } | undefined;

/** A client getter that makes one client per lane (one in all when no lanes are registered), each with its lane's pool. */
export const clientPerLane = <C>(make: (requestHandler: PoolOptions) => C): (() => C) => {
  const clients = new Map<string, C>();
  return () => {
    const lane = lanes?.current() ?? '';
    let client = clients.get(lane);
    if (!client) {
      client = make(lanes && { httpAgent: { maxSockets: lanes.maxSockets(lane), keepAlive: true } });
      clients.set(lane, client);
    }
    return client;
  };
};

/**
 * A module loaded at its first use, once (`load` is an `await import()`): an SDK that only some calls of a
 * function need stays out of its cold start. A load that fails is tried again at the next use.
 */
export const onFirstUse = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
};
