import { beforeAll } from 'vitest';
import { client, type Client } from './api';
import { useTestStack } from './stack';
import { tokenFor } from './tenants';

let baseUrl: string | undefined;

/** Fixture calls use their own tokens (a new one every 90 writes), so tests keep their own rate-limit budget. */
const fixtureCallers = new Map<string, { used: number; caller?: Promise<Client> }>();
const fixtureCaller = (workspaceId: string): Promise<Client> => {
  const state = fixtureCallers.get(workspaceId) ?? { used: 0 };
  fixtureCallers.set(workspaceId, state);
  if (state.used++ % 90 === 0) {
    state.caller = tokenFor([workspaceId], ['contacts:write', 'inbox:write']).then(({ token }) => client(baseUrl!, { token, workspaceId }));
  }
  return state.caller!;
};

const created = async (workspaceId: string, path: string, body: object, key: string): Promise<string> => {
  const res = await (await fixtureCaller(workspaceId)).post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data[key]._id as string;
};

/** Customers and conversations to tag, made through the contacts and inbox APIs. */
export const newCustomer = (workspaceId: string, name = 'Ada Lovelace'): Promise<string> =>
  created(workspaceId, '/api/v1/contacts/customers', { name }, 'customer');

export const newConversation = async (workspaceId: string): Promise<string> =>
  created(workspaceId, '/api/v1/inbox/conversations', { customerId: await newCustomer(workspaceId) }, 'conversation');

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

/** One local stack for the calling test file, and fresh tenants on it; the fixtures above call the same stack. */
export const tagsStack = () => {
  const env = useTestStack();
  beforeAll(() => {
    baseUrl = env.stack.baseUrl;
  });
  return env;
};

export const errorPaths = (res: { body: any }): string[] => (res.body.error.details.errors as { path: string }[]).map((e) => e.path).sort();
