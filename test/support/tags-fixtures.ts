import { createConversation } from '../../shared/data/conversations';
import { createCustomer } from '../../shared/data/customers';
import { afterAll, beforeAll, expect } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client, type Client } from './api';
import { startTestStack } from './stack';
import { createTenant } from './tenants';

/** Customers and conversations to tag, made by the contacts and inbox repositories. */
export const newCustomer = async (workspaceId: string, name = 'Ada Lovelace'): Promise<string> =>
  (await createCustomer(workspaceId, { name }, new Date()))._id;

export const newConversation = async (workspaceId: string): Promise<string> => {
  const customerId = await newCustomer(workspaceId);
  return (await createConversation(workspaceId, { customerId, channel: 'api' }, new Date()))._id;
};

export const newEntity = (type: 'conversation' | 'customer', workspaceId: string) =>
  type === 'conversation' ? newConversation(workspaceId) : newCustomer(workspaceId);

let serial = 0;

/** A tag through the API; names are unique per run so tests never collide. */
export const newTag = async (api: Client, name = `tag-${process.pid}-${++serial}`): Promise<string> => {
  const res = await api.post('/api/v1/tags', { name });
  if (res.status !== 201) throw new Error(`creating tag failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.tag._id as string;
};

export const ENTITY_PATHS = { conversation: '/api/v1/inbox/conversations', customer: '/api/v1/contacts/customers' } as const;

/** One local stack for the calling test file, and fresh tenants on it (each with its own rate-limit budget). */
export const tagsStack = () => {
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.stop());
  return {
    tenant: async () => {
      const t = await createTenant(['admin:all']);
      return { ...t, api: client(stack!.baseUrl, { token: t.token, workspaceId: t.workspaceId }) };
    },
  };
};

export const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
};

export const errorPaths = (res: { body: any }): string[] => (res.body.error.details.errors as { path: string }[]).map((e) => e.path).sort();
