import * as z from 'zod';
import type { Tenant } from '../domain/auth/tenant';
import { bumpCounter } from './counters';
import { ENTITY_TYPES, type EntityType } from '../domain/tags/tagging';
import { tagLink } from './registry/tags';
import { queryPage } from './query';
import { taggedCounter } from './tag-links';
import { deleteItem, type Write } from './transact';

/** One page of a tag's links (`<type>#<entityId>` sort keys), of every entity type. */
export const tagLinksPage = async (tenant: Tenant, tagId: string, limit: number, cursor?: string) => {
  const page = await queryPage({ pk: tagLink.build('pk', { tenant, tagId }) }, { limit, cursor });
  const links = page.items.map((item) => {
    const { entityType, entityId } = tagLink.read('sk', item.sk);
    return [z.enum(ENTITY_TYPES).parse(entityType), entityId] as [EntityType, string];
  });
  return { links, nextCursor: page.nextCursor };
};

/** Drops a link (and its count) whose entity is gone or no longer carries the tag; `onGone` when it was dropped already. */
export const staleLinkDrop = (tenant: Tenant, tagId: string, type: EntityType, entityId: string, onGone: () => Error): Write[] => [
  deleteItem(tagLink.key({ tenant, tagId, entityType: type, entityId }), { condition: 'attribute_exists(pk)', onFail: onGone }),
  bumpCounter(tenant, taggedCounter(tagId, type), -1),
];
