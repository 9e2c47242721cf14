import type { Tenant } from '../domain/auth/tenant';
import { tenantPk } from './keys';

/**
 * Keys of the workspace entities that more than one area touches: tags reach into conversations,
 * customers and leads, merges move conversations, CRM links to customers and conversations. Every key starts with the owning tenant.
 */
export const customerKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, 'CUSTOMER', id), sk: 'CUSTOMER' });
export const conversationKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, 'CONV', id), sk: 'CONVERSATION' });
export const leadKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, 'LEAD', id), sk: 'LEAD' });
export const tagKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, 'TAG', id), sk: 'TAG' });

export type TaggableType = 'conversation' | 'customer' | 'lead';

/** One item per (tag, entity): lists entities by tag in O(page). */
export const tagLinkKey = (workspaceId: Tenant, tagId: string, type: TaggableType, entityId: string) => ({
  pk: tenantPk(workspaceId, 'TAGGED', tagId),
  sk: `${type}#${entityId}`,
});

/** Tag ids on a taggable entity item are a DynamoDB String Set under this attribute (ADD/DELETE are idempotent). */
export const TAG_IDS_ATTRIBUTE = 'tagIds';
