import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startStack, type LocalStack, type StackOptions } from '../../infra/local/stack';
import type { Scope } from '../../shared/domain/auth/scopes';
import { useLogSink } from '../../shared/log';
import { client } from './api';
import { slotDynamo, slotSqs } from './slots';
import { wiring } from '../../functions/wiring';
import { runDownloadKey } from './download-key';
import { createTenant, tokenFor } from './tenants';
import { unhandledErrors } from './unhandled';

/**
 * A whole local stack for one test file: its own table, queues, buckets and workers, stopped with it. Its table
 * lives on the worker slot's warm in-memory DynamoDB Local, its queues and buckets (under names of its own) on
 * the slot's SQS emulator (`slots.ts`), and all are dropped when the file is done, so a slot's emulators hold
 * one file's data at a time; a stack that persists its data, or runs outside vitest, starts emulators of its own.
 */
export const startTestStack = async (opts: StackOptions = {}): Promise<LocalStack> => {
  const id = randomUUID();
  const tableName = opts.tableName ?? `t-${id}`;
  const dynamo = opts.dataDir || opts.dynamoEndpoint ? undefined : await slotDynamo();
  const sqs = opts.dataDir || opts.sqsEndpoint ? undefined : await slotSqs();
  // On the slot's emulator, the functions find the file's buckets by their names in the environment, as deployed.
  const buckets = sqs ? wiring.buckets.map((b) => (process.env[b.nameEnv] = `parley-${b.name}-${id.slice(0, 8)}`)) : [];
  // A file's functions load at their first invocation: preloading the routes cost each file about 3.5 CPU s,
  // the workers about 0.5. Its download signing key is the run's, made once by the global setup.
  const stack = await startStack({
    preloadFunctions: false,
    downloadKey: runDownloadKey(),
    ...opts,
    tableName,
    dynamoEndpoint: opts.dynamoEndpoint ?? dynamo?.endpoint,
    sqsEndpoint: opts.sqsEndpoint ?? sqs?.endpoint,
    queuePrefix: sqs ? `f${id.slice(0, 8)}-` : opts.queuePrefix,
  });
  // A run that keeps its logs (LOG_LEVEL set) sees every line as the functions write them.
  const restoreLogs = process.env.LOG_LEVEL === 'silent' ? useLogSink(unhandledErrors) : () => undefined;
  return {
    ...stack,
    stop: async () => {
      restoreLogs();
      await stack.stop();
      await dynamo?.drop(tableName);
      await sqs?.drop(stack, buckets);
    },
  };
};

/**
 * The calling test file's stack (started before its tests, stopped after them) and fresh tenants on it,
 * each with an API client and its own rate-limit budget.
 */
export const useTestStack = (opts: StackOptions = {}) => {
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack(opts);
  });
  afterAll(() => stack?.stop());
  const running = () => {
    if (!stack) throw new Error('the test stack is used before beforeAll started it');
    return stack;
  };
  return {
    get stack() {
      return running();
    },
    tenant: async (scopes: Scope[] = ['admin:all']) => {
      const t = await createTenant(scopes);
      return { ...t, api: client(running().baseUrl, { token: t.token, workspaceId: t.workspaceId }) };
    },
    /** The same workspace through a live admin token: its other mode (a new tenant's token is a test one). */
    liveMode: async (t: { workspaceId: string }) => {
      const { token } = await tokenFor([t.workspaceId], ['admin:all'], { livemode: true });
      return { workspaceId: t.workspaceId, token, api: client(running().baseUrl, { token, workspaceId: t.workspaceId }) };
    },
  };
};
