import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startStack, type LocalStack, type StackOptions } from '../../infra/local/stack';
import type { Scope } from '../../shared/domain/auth/scopes';
import { client } from './api';
import { createTenant, tokenFor } from './tenants';

/**
 * A whole local stack for one test file: its own in-memory DynamoDB Local, SQS emulator and table, all
 * stopped with it. A DynamoDB Local shared across files slowed down as the run went on (files late in a
 * run took up to 4 times as long as early), and files sharing one waited on each other's SQLite lock.
 */
export const startTestStack = (opts: StackOptions = {}): Promise<LocalStack> => startStack({ tableName: `t-${randomUUID()}`, ...opts });

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
      const { token } = await tokenFor([t.workspaceId], ['admin:all'], { environment: 'live' });
      return { workspaceId: t.workspaceId, token, api: client(running().baseUrl, { token, workspaceId: t.workspaceId }) };
    },
  };
};
