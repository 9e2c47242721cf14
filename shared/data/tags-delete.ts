import type { Tenant } from '../domain/auth/tenant';
import { bumpCounter } from './counters';
import { tagLinkKey, type TaggableType } from './entity-keys';
import { queryPage } from './query';
import { taggedCounter } from './tag-links';
import { deleteItem, type Write } from './transact';

/** One page of a tag's links (`<type>#<entityId>` sort keys), of every entity type. */
export const tagLinksPage = async (tenant: Tenant, tagId: string, limit: number, cursor?: string) => {
  const page = await queryPage({ pk: tagLinkKey(tenant, tagId, 'conversation', '').pk }, { limit, cursor });
  return { links: page.items.map((link) => (link.sk as string).split('#') as [TaggableType, string]), nextCursor: page.nextCursor };
};

/** Drops a link (and its count) whose entity is gone or no longer carries the tag; `onGone` when it was dropped already. */
export const staleLinkDrop = (tenant: Tenant, tagId: string, type: TaggableType, entityId: string, onGone: () => Error): Write[] => [
  deleteItem(tagLinkKey(tenant, tagId, type, entityId), { condition: 'attribute_exists(pk)', onFail: onGone }),
  bumpCounter(tenant, taggedCounter(tagId, type), -1),
];
