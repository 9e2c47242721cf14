import type { Tenant } from '../domain/auth/tenant';
import { tenantPk } from './keys';
import { K } from './registry/registry';

/**
 * Keys of the workspace entities that more than one area touches: tags reach into conversations,
 * customers and leads, merges move conversations, CRM links to customers and conversations. Every key starts with the owning tenant.
 */
export const customerKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, K.CUSTOMER, id), sk: K.CUSTOMER });
export const conversationKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, K.CONV, id), sk: K.CONVERSATION });
export const leadKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, K.LEAD, id), sk: K.LEAD });
export const tagKey = (workspaceId: Tenant, id: string) => ({ pk: tenantPk(workspaceId, K.TAG, id), sk: K.TAG });

export type TaggableType = 'conversation' | 'customer' | 'lead';

/** One item per (tag, entity): lists entities by tag in O(page). */
export const tagLinkKey = (workspaceId: Tenant, tagId: string, type: TaggableType, entityId: string) => ({
  pk: tenantPk(workspaceId, K.TAGGED, tagId),
  sk: `${type}#${entityId}`,
});

/** Tag ids on a taggable entity item are a DynamoDB String Set under this attribute (ADD/DELETE are idempotent). */
export const TAG_IDS_ATTRIBUTE = 'tagIds';
