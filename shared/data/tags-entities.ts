import type { Tenant } from '../domain/auth/tenant';
import type { EntityType } from '../domain/tags/tagging';
import { conversationKey, customerKey, leadKey } from './entity-keys';
import { batchGet } from './batch-get';
import { storedKey } from './codec';

/** The items tags reach into, owned by the inbox, contacts and CRM areas (see entity-keys.ts). */
const KEYS = { conversation: conversationKey, customer: customerKey, lead: leadKey } as const;

export const entityKey = (tenant: Tenant, type: EntityType, id: string) => KEYS[type](tenant, id);

/** Entity items by id; ids that name nothing in this workspace are absent. */
export const readEntities = async (
  tenant: Tenant,
  type: EntityType,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> => {
  const unique = [...new Set(ids)];
  const keys = unique.map((id) => entityKey(tenant, type, id));
  const items = new Map((await batchGet(keys)).map((i) => [storedKey(i).pk, i]));
  return new Map(
    unique.flatMap((id, i) => {
      const item = items.get(keys[i]!.pk);
      return item ? [[id, item] as const] : [];
    }),
  );
};
