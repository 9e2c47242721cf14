import type { Tenant } from '../domain/auth/tenant';
import { lead as leadEntity } from './registry/crm';
import { conversation as conversationEntity } from './registry/inbox';
import { customerKeys } from './registry/contacts';

/**
 * Keys of the workspace entities that more than one area touches: tags reach into conversations,
 * customers and leads, merges move conversations, CRM links to customers and conversations. Every key starts with the owning tenant.
 */
export const customerKey = (tenant: Tenant, id: string) => customerKeys.key({ tenant, id });
export const conversationKey = (tenant: Tenant, id: string) => conversationEntity.key({ tenant, id });
export const leadKey = (tenant: Tenant, id: string) => leadEntity.key({ tenant, id });

/** Tag ids on a taggable entity item are a DynamoDB String Set under this attribute (ADD/DELETE are idempotent). */
export const TAG_IDS_ATTRIBUTE = 'tagIds';
