import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startStack, type LocalStack, type StackOptions } from '../../infra/local/stack';
import type { Scope } from '../../shared/domain/auth/scopes';
import { useLogSink } from '../../shared/log';
import { client } from './api';
import { slotDynamo } from './dynamo-slots';
import { runDownloadKey } from './download-key';
import { createTenant, tokenFor } from './tenants';
import { unhandledErrors } from './unhandled';

/**
 * A whole local stack for one test file: its own table, SQS emulator and workers, stopped with it. Its
 * table lives on the worker slot's warm in-memory DynamoDB Local (`dynamo-slots.ts`) and is dropped when
 * the file is done, so a slot's database holds one file's data at a time; a stack that persists its data,
 * or runs outside vitest, starts a DynamoDB Local of its own.
 */
export const startTestStack = async (opts: StackOptions = {}): Promise<LocalStack> => {
  const tableName = opts.tableName ?? `t-${randomUUID()}`;
  const shared = opts.dataDir || opts.dynamoEndpoint ? undefined : await slotDynamo();
  // A file's routes load at their first request: preloading all of them cost each file about 3.5 CPU s. Its
  // download signing key is the run's, made once by the global setup.
  const stack = await startStack({
    preloadRoutes: false,
    downloadKey: runDownloadKey(),
    ...opts,
    tableName,
    dynamoEndpoint: opts.dynamoEndpoint ?? shared?.endpoint,
  });
  // A run that keeps its logs (LOG_LEVEL set) sees every line as the functions write them.
  const restoreLogs = process.env.LOG_LEVEL === 'silent' ? useLogSink(unhandledErrors) : () => undefined;
  return {
    ...stack,
    stop: async () => {
      restoreLogs();
      await stack.stop();
      await shared?.drop(tableName);
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
