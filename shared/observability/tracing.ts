import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { Pluggable } from '@smithy/types';
import { deployed } from '../config';

/**
 * X-Ray subsegments, sent straight to the daemon Lambda runs beside every traced function (its UDP protocol:
 * a JSON header line, then the subsegment document). Lambda itself opens each invocation's segment and
 * decides whether it is sampled (the stage's sampling rules), and hands both to the code in
 * `_X_AMZN_TRACE_ID` (`Root=…;Parent=…;Sampled=1`); outside Lambda, or when the invocation is not sampled,
 * every call here does nothing. The X-Ray SDK (through Powertools' Tracer) did the same with 115 KB of
 * bundle, 23 ms of cold start and async hooks on every promise (docs/operations/observability.md).
 */
interface Trace {
  root: string;
  parent: string;
}

/** The invocation's trace when it is sampled (read per call: Lambda rewrites it for each invocation). */
const sampledTrace = (env: NodeJS.ProcessEnv = process.env): Trace | undefined => {
  if (!deployed(env)) return undefined;
  const fields = Object.fromEntries((env._X_AMZN_TRACE_ID ?? '').split(';').map((part) => part.split('=') as [string, string]));
  return fields.Sampled === '1' && fields.Root && fields.Parent ? { root: fields.Root, parent: fields.Parent } : undefined;
};

/** `host:port`, or the two-protocol form `tcp:host:port udp:host:port`: subsegments go over UDP. */
export const daemonAddress = (value = process.env.AWS_XRAY_DAEMON_ADDRESS ?? '127.0.0.1:2000'): { host: string; port: number } => {
  const udp =
    value
      .split(' ')
      .find((part) => part.startsWith('udp:'))
      ?.slice('udp:'.length) ?? value;
  const at = udp.lastIndexOf(':');
  return { host: udp.slice(0, at), port: Number(udp.slice(at + 1)) };
};

let socket: Socket | undefined;
const HEADER = `${JSON.stringify({ format: 'json', version: 1 })}\n`;

/** Sends one finished subsegment; a lost datagram loses a trace, never the call. */
const send = (document: Record<string, unknown>): void => {
  if (!socket) {
    socket = createSocket('udp4');
    socket.unref();
  }
  const { host, port } = daemonAddress();
  socket.send(HEADER + JSON.stringify(document), port, host, () => undefined);
};

const open = new AsyncLocalStorage<string>();
const seconds = () => Date.now() / 1000;

interface Detail {
  namespace?: 'aws' | 'remote';
  annotations?: Record<string, string | undefined>;
  aws?: Record<string, unknown>;
  status?: number;
  error?: unknown;
}

/** The X-Ray flags of an outcome: `throttle` and `error` for a 429, `error` for a 4xx, `fault` for a 5xx or a throw. */
const outcome = (status: number | undefined, error: unknown) => {
  if (status === 429) return { error: true, throttle: true };
  if (status !== undefined && status >= 400) return status >= 500 ? { fault: true } : { error: true };
  return error ? { fault: true, cause: { exceptions: [{ message: (error as Error).message, type: (error as Error).name }] } } : {};
};

/** Runs `fn` in a subsegment of the current one (or of the invocation's segment); `detail` is read when it ends. */
const traced = async <T>(name: string, fn: () => Promise<T>, detail: (result: T | undefined, error: unknown) => Detail): Promise<T> => {
  const trace = sampledTrace();
  if (!trace) return fn();
  const id = randomBytes(8).toString('hex');
  const parent = open.getStore() ?? trace.parent;
  const start = seconds();
  let result: T | undefined;
  let failure: unknown;
  try {
    result = await open.run(id, fn);
    return result;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    const { namespace, annotations = {}, aws, status, error } = detail(result, failure);
    send({
      type: 'subsegment',
      id,
      name,
      trace_id: trace.root,
      parent_id: parent,
      start_time: start,
      end_time: seconds(),
      namespace,
      annotations: Object.fromEntries(Object.entries(annotations).filter(([, v]) => v !== undefined)),
      aws,
      http: status === undefined ? undefined : { response: { status } },
      ...outcome(status, error ?? failure),
    });
  }
};

/**
 * Runs `fn` in a subsegment named `name` (an outbound HTTP call, or a handler's own work: Lambda's own
 * segment cannot carry annotations); `annotations` are read when it ends, so they may name what `fn` learnt.
 */
export const inSubsegment = <T>(
  name: string,
  fn: () => Promise<T>,
  annotations: () => Record<string, string | undefined> = () => ({}),
): Promise<T> => traced(name, fn, () => ({ annotations: annotations() }));

interface SdkOutput {
  $metadata?: { httpStatusCode?: number; requestId?: string; attempts?: number };
}

/** One subsegment per AWS SDK call (all its attempts), named by the service, as the X-Ray console groups them. */
const sdkCalls: Pluggable<any, any> = {
  applyToStack: (stack) =>
    stack.add(
      (next, context) => (args) =>
        traced(
          String(context.clientName ?? 'AWS').replace(/Client$/, ''),
          () => next(args),
          (result, error) => {
            const meta = ((result as { output?: SdkOutput } | undefined)?.output ?? (error as SdkOutput | undefined))?.$metadata;
            const input = args.input as { TableName?: string; QueueUrl?: string };
            return {
              namespace: 'aws',
              status: meta?.httpStatusCode,
              error,
              aws: {
                operation: String(context.commandName ?? '').replace(/Command$/, ''),
                request_id: meta?.requestId,
                retries: meta?.attempts ? meta.attempts - 1 : undefined,
                table_name: input?.TableName,
                queue_url: input?.QueueUrl,
              },
            };
          },
        ),
      { step: 'initialize', name: 'xraySubsegment' },
    ),
};

/** An AWS SDK client whose every call is a subsegment when the invocation is traced (DynamoDB, SQS, KMS). */
export const tracedClient = <C extends { middlewareStack: { use(p: Pluggable<any, any>): void } }>(client: C): C => {
  if (deployed()) client.middlewareStack.use(sdkCalls);
  return client;
};
