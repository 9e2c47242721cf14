import type { Tenant } from '../domain/auth/tenant';
import type { EntityType } from '../domain/tags/tagging';
import { conversationKey, customerKey, leadKey, TAG_IDS_ATTRIBUTE } from './entity-keys';
import { batchGet } from './batch-get';
import { fromItem as conversationFromItem } from './conversations';
import { fromItem as customerFromItem } from './customers';
import { fromItem as leadFromItem } from './leads';

/** The items tags reach into, owned by the inbox and contacts areas (see entity-keys.ts). */
const KEYS = { conversation: conversationKey, customer: customerKey, lead: leadKey } as const;
const VIEWS = { conversation: conversationFromItem, customer: customerFromItem, lead: leadFromItem } as const;

export const entityKey = (tenant: Tenant, type: EntityType, id: string) => KEYS[type](tenant, id);

/** The catalog's entity name in event data: `inbox.conversation.*` → conversation, `customer.contact.*` → contact. */
export const eventEntityName = { conversation: 'conversation', customer: 'contact', lead: 'lead' } as const;

/** The entity as event data, in its owning area's public shape, with `tagIds` as given. */
export const entityView = (type: EntityType, item: Record<string, unknown>, tagIds: string[]): Record<string, unknown> => ({
  ...VIEWS[type](item),
  [TAG_IDS_ATTRIBUTE]: tagIds,
});

/** Entity items by id; ids that name nothing in this workspace are absent. */
export const readEntities = async (
  tenant: Tenant,
  type: EntityType,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> => {
  const unique = [...new Set(ids)];
  const keys = unique.map((id) => entityKey(tenant, type, id));
  const items = new Map((await batchGet(keys)).map((i) => [i.pk as string, i]));
  return new Map(
    unique.flatMap((id, i) => {
      const item = items.get(keys[i]!.pk);
      return item ? [[id, item] as const] : [];
    }),
  );
};
