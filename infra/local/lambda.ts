import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { wiring } from '../../functions/wiring';
import { grantsFor } from '../grants';
import type { FunctionKind, FunctionSpec } from '../../functions/wiring/types';
import { sizing } from '../../functions/wiring/sizing';
import { assumeRole, installAwsGuard, runAs, type Caller } from './aws-guard';
import { installPools } from './aws-pools';
import { installEmulatorRetries } from './emulator-retry';
import { installFaults } from './faults';
import { installLocalKms } from './kms';
import { installLocalSsm } from './ssm';
import { installSlowInvocationLog, timedInvocation } from './slow-invocations';

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const root = resolve(import.meta.dirname, '..', '..');

// Before any function creates its AWS clients: from here on they refuse what AWS would refuse.
installAwsGuard(wiring);
installLocalKms(wiring);
installLocalSsm();
installPools();
installEmulatorRetries();
installFaults();
installSlowInvocationLog();
const loaded = new Map<string, Promise<Handler>>();
/** Told of each invocation as it starts; what it returns is called when the invocation ends. */
type InvokeListener = (name: string, event: unknown) => (() => void) | undefined;
const invocationListeners: InvokeListener[] = [];

/**
 * Tells `listener` of every function invoked from now on (benchmarks count and time calls with it; a stack's
 * stream reader reads after each); the returned function stops telling it.
 */
export const onInvoke = (listener: InvokeListener): (() => void) => {
  invocationListeners.push(listener);
  return () => {
    const i = invocationListeners.indexOf(listener);
    if (i >= 0) invocationListeners.splice(i, 1);
  };
};

/** Imports a function once and keeps it warm, as a Lambda container does between invocations. */
const load = (file: string): Promise<Handler> => {
  let handler = loaded.get(file);
  if (!handler) {
    handler = import(pathToFileURL(resolve(root, file)).href).then((m: { handler?: Handler }) => {
      if (typeof m.handler !== 'function') throw new Error(`${file} exports no handler`);
      return m.handler;
    });
    loaded.set(file, handler);
  }
  return handler;
};

export const nameOf = (spec: FunctionSpec) => spec.handler.replace(/\.ts$/, '').replaceAll('/', '-');

/** Lambda's error for an invocation that outlived its timeout. */
export class InvocationTimedOut extends Error {
  override name = 'Sandbox.Timedout';
  constructor(timeoutSeconds: number) {
    super(`Task timed out after ${timeoutSeconds.toFixed(2)} seconds`);
  }
}

/**
 * The invocation's answer, or Lambda's timeout once `timeoutSeconds` have passed. On AWS the sandbox is then
 * reset; here the function's work goes on unawaited, and whatever it ends with is dropped.
 */
const endAtTimeout = <T>(work: Promise<T>, timeoutSeconds: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InvocationTimedOut(timeoutSeconds)), timeoutSeconds * 1000);
  });
  work.catch(() => undefined);
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
};

/** Lambda's context for one invocation, its deadline on the monotonic clock: a test that moves `Date` does not move it. */
const contextFor = (spec: FunctionSpec, memoryMb: number, deadline: number): Context => {
  const name = nameOf(spec);
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, Math.floor(deadline - performance.now())),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** How the caller triggers the function, which decides its grants as deployed (a queue consumer's own queue included). */
export interface Role {
  kind: FunctionKind;
  consumes?: string;
}

const callers = new WeakMap<FunctionSpec, Map<string, Caller>>();
/** The function in its role, with the grants it deploys with: one per function and role, as IAM has one role per function. */
const callerOf = (spec: FunctionSpec, role: Role): Caller => {
  const roles = callers.get(spec) ?? callers.set(spec, new Map()).get(spec)!;
  const id = `${role.kind}:${role.consumes ?? ''}`;
  let caller = roles.get(id);
  if (!caller) {
    caller = { name: nameOf(spec), kind: role.kind, grants: grantsFor(spec, role.kind, role.consumes, wiring.buckets) };
    roles.set(id, caller);
  }
  return caller;
};

// Every function's role exists before anything runs, as IAM's do: what one signed before a restart still verifies after it.
for (const spec of [...wiring.routes, wiring.fallback]) assumeRole(callerOf(spec, { kind: 'http' }));
for (const rule of wiring.rules) assumeRole(callerOf(rule.target, { kind: 'event' }));
for (const queue of wiring.queues) assumeRole(callerOf(queue.consumer, { kind: 'queue', consumes: queue.name }));
for (const schedule of wiring.schedules) assumeRole(callerOf(schedule.target, { kind: 'schedule' }));

/** Invokes a function as Lambda would: its AWS calls held to the grants of its role, its time to the timeout it deploys with. */
export const invoke = async <R = unknown>(spec: FunctionSpec, role: Role, event: unknown): Promise<R> => {
  const handler = await load(spec.handler);
  const caller = callerOf(spec, role);
  const ended = invocationListeners.map((listener) => listener(nameOf(spec), event));
  try {
    const { memoryMb, timeoutSeconds } = sizing(spec, role.kind);
    const context = contextFor(spec, memoryMb, performance.now() + timeoutSeconds * 1000);
    const requestId = (event as { requestContext?: { requestId?: string } }).requestContext?.requestId ?? context.awsRequestId;
    return (await runAs(caller, () =>
      timedInvocation({ function: context.functionName, requestId }, timeoutSeconds * 1000, () =>
        endAtTimeout(handler(event, context), timeoutSeconds),
      ),
    )) as R;
  } finally {
    for (const end of ended) end?.();
  }
};

export const preload = (specs: readonly FunctionSpec[]): Promise<unknown> => Promise.all(specs.map((s) => load(s.handler)));
