import { createConversation } from '../../shared/data/conversations';
import { createCustomer } from '../../shared/data/customers';
import type { Client } from './api';

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
