import type { Tenant } from '../domain/auth/tenant';
import type { EntityType } from '../domain/tags/tagging';
import { tagLink } from './registry/tags';
import { deleteItem, putItem, type Write } from './transact';
import { queryAll, queryPage, type PageRequest } from './query';
import { bumpCounter, readCounter } from './counters';

/**
 * The tag links and per-tag counters that follow an entity's tags; the inbox and contacts repositories
 * write them when an entity is deleted or merged, the tags area when it tags and untags.
 */

/** The number of entities of `type` carrying a tag, kept by the tags area and read by the others for filtered totals. */
export const taggedCounter = (tagId: string, type: string) => `tagged:${tagId}:${type}`;

/** Tag ids arrive as a DynamoDB String Set (or not at all); the API shows a sorted array. */
export const tagIdsOf = (value: unknown): string[] => (value instanceof Set || Array.isArray(value) ? [...value].map(String).sort() : []);

/** Puts (+1) or deletes (-1) an entity's tag link items, without touching the per-tag counters. */
export const tagLinks = (tenant: Tenant, type: EntityType, id: string, tagIds: string[], delta: 1 | -1, now: Date): Write[] =>
  tagIds.map((tagId) => {
    const link = tagLink.key({ tenant, tagId, entityType: type, entityId: id });
    return delta > 0
      ? putItem({ ...link, type: 'TAG_LINK', tagId, entityType: type, entityId: id, createdAt: now.toISOString() })
      : deleteItem(link);
  });

/** The tags area's per-tag counters of tagged entities (`tagged:<tagId>:<type>`). */
export const tagCounters = (tenant: Tenant, type: EntityType, tagIds: string[], delta: 1 | -1): Write[] =>
  tagIds.map((tagId) => bumpCounter(tenant, taggedCounter(tagId, type), delta));

/**
 * The condition of deleting a tagged entity: the version read and the number of tags read, so a concurrent
 * tagging (which changes the tag set, not the version) makes the delete re-run with the links it must remove.
 */
export const unchangedSinceRead = (version: number, tagIds: readonly string[]) => ({
  condition: `#v = :v AND ${tagIds.length ? 'size(tagIds) = :n' : 'attribute_not_exists(tagIds)'}`,
  names: { '#v': 'version' },
  values: { ':v': version, ...(tagIds.length ? { ':n': tagIds.length } : {}) },
});

/** Adds (+1) or removes (-1) an entity's tag links, keeping the per-tag counters exact. */
export const tagLinkWrites = (tenant: Tenant, type: EntityType, id: string, tagIds: string[], delta: 1 | -1, now: Date): Write[] => [
  ...tagLinks(tenant, type, id, tagIds, delta, now),
  ...tagCounters(tenant, type, tagIds, delta),
];

/** The ids of the entities of `type` that carry the tag, one page of links at a time. */
export async function* taggedEntityIds(tenant: Tenant, tagId: string, type: EntityType): AsyncGenerator<string> {
  const pk = tagLink.build('pk', { tenant, tagId });
  const skPrefix = tagLink.prefix('sk', { entityType: type });
  for await (const link of queryAll({ pk, skPrefix })) yield tagLink.read('sk', link.sk).entityId;
}

/** One page of the ids of the entities of `type` that carry the tag, newest link first, and their exact total. */
export const taggedPage = async (tenant: Tenant, tagId: string, type: EntityType, page: PageRequest) => {
  const pk = tagLink.build('pk', { tenant, tagId });
  const skPrefix = tagLink.prefix('sk', { entityType: type });
  const [result, total] = await Promise.all([
    queryPage({ pk, skPrefix, newestFirst: true }, page),
    readCounter(tenant, taggedCounter(tagId, type)),
  ]);
  return { ids: result.items.map((link) => tagLink.read('sk', link.sk).entityId), total, nextCursor: result.nextCursor };
};
