import type { Tenant } from '../domain/auth/tenant';
import { conversationDeletion, type Stored } from '../data/conversations';
import { customerCounting } from '../data/customers-conversations';
import type { Write } from '../data/transact';

/** The writes that delete the conversation as read (`conversationDeletion`), uncounting it on its customer. */
export const conversationRemoval = async (tenant: Tenant, stored: Stored, now: Date): Promise<Write[]> =>
  conversationDeletion(tenant, stored, now, await customerCounting(tenant, stored.conversation.customerId, -1));
