import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startStack, type LocalStack, type StackOptions } from '../../infra/local/stack';
import type { Scope } from '../../shared/domain/auth/scopes';
import { client } from './api';
import { dropTable, dynamoEndpoint } from './dynamo-endpoint';
import { createTenant, tokenFor } from './tenants';

/**
 * A whole local stack for one test file: its own table in its worker's DynamoDB Local, its own SQS. The
 * table is dropped when the stack stops, so the worker's DynamoDB Local does not grow with every file run.
 */
export const startTestStack = async (opts: StackOptions = {}): Promise<LocalStack> => {
  const stack = await startStack({ dynamoEndpoint: dynamoEndpoint(), tableName: `t-${randomUUID()}`, ...opts });
  return {
    ...stack,
    stop: async () => {
      await stack.stop();
      await dropTable(stack.dynamoEndpoint, stack.tableName);
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
      const { token } = await tokenFor([t.workspaceId], ['admin:all'], { environment: 'live' });
      return { workspaceId: t.workspaceId, token, api: client(running().baseUrl, { token, workspaceId: t.workspaceId }) };
    },
  };
};
