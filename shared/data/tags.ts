import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Refused } from '../domain/refusal';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { storedTenant, type Tenant } from '../domain/auth/tenant';
import { nameKey, type Tag } from '../domain/tags/tag';
import { bumpCounter, readCounter } from './counters';
import { batchGet } from './batch-get';
import { taggedCounter } from './tag-links';
import { queryPage, type PageRequest } from './query';
import { conditionCheck, createItem, deleteItem, updateItem, type Write } from './transact';
import { tag as tagEntity, tagName } from './registry/tags';

/**
 * Tags of a workspace (keys: registry/tags.ts), and their total in counter `tags`. A tag being deleted keeps
 * its item, marked `deletingAt`, until it is detached from every entity; the sparse index of deletions under
 * way lets a schedule finish deletions a crash or timeout interrupted.
 */
const TAGS_COUNTER = 'tags';
const LIVE = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';

const guard = (tenant: Tenant, name: string) => tagName.key({ tenant, nameKey: nameKey(name) });
const byName = (tenant: Tenant, tag: Tag) => tagEntity.index('gsi1', { tenant, nameKey: nameKey(tag.name), id: tag._id });

const toItem = (tenant: Tenant, tag: Tag) => ({
  ...tagEntity.key({ tenant, id: tag._id }),
  type: 'TAG',
  ...byName(tenant, tag),
  version: 1,
  ...tag,
});

const storedOf = (item: Record<string, unknown>): StoredTag => {
  const { version, deletingAt, sweepUntil, ...tag } = tagEntity.parse(item);
  return { tag, version, deletingAt, sweepUntil };
};

const fromItem = (item: Record<string, unknown>): Tag => storedOf(item).tag;

const nameTaken = (name: string) => new Refused('tag_name_taken', `A tag named "${name}" already exists`, { field: 'name' });

/** The writes that store a new tag: its item, its name's guard (refused when taken) and the workspace's count. */
export const tagCreation = (tenant: Tenant, tag: Tag): Write[] => [
  createItem(toItem(tenant, tag)),
  createItem({ ...guard(tenant, tag.name), type: 'TAGNAME', tagId: tag._id }, () => nameTaken(tag.name)),
  bumpCounter(tenant, TAGS_COUNTER, 1),
];

/** A tag as stored: its version, and while it is being deleted, since when and whose turn it is until when. */
export interface StoredTag {
  tag: Tag;
  version: number;
  deletingAt?: string;
  sweepUntil?: string;
}

export const readTag = async (tenant: Tenant, id: string): Promise<StoredTag | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: tagEntity.key({ tenant, id }), ConsistentRead: true }),
  );
  return Item && storedOf(Item);
};

/** A live tag; a tag being deleted is already gone for every caller. */
export const getTag = async (tenant: Tenant, id: string): Promise<Tag | undefined> => {
  const stored = await readTag(tenant, id);
  return stored && !stored.deletingAt ? stored.tag : undefined;
};

/** Live tags by id (strongly consistent), for validating the tag ids a request names. */
export const getTags = async (tenant: Tenant, ids: readonly string[]): Promise<Map<string, Tag>> => {
  const items = await batchGet([...new Set(ids)].map((id) => tagEntity.key({ tenant, id })));
  const live = items.filter((i) => !i.deletingAt).map(fromItem);
  return new Map(live.map((t) => [t._id, t]));
};

/** Live tags for `ids`, by name: what an entity's tag ids show as. */
export const tagsByName = async (tenant: Tenant, ids: readonly string[]): Promise<Tag[]> =>
  [...(await getTags(tenant, ids)).values()].sort((a, b) => nameKey(a.name).localeCompare(nameKey(b.name)));

/** One page of the live tags by name, with their exact total. */
export const tagsPage = async (tenant: Tenant, page: PageRequest) => {
  const [result, total] = await Promise.all([
    queryPage({ index: 'gsi1', pk: tagEntity.build('gsi1pk', { tenant }) }, page),
    readCounter(tenant, TAGS_COUNTER),
  ]);
  return { tags: result.items.map(fromItem), total, nextCursor: result.nextCursor };
};

export const countTagged = async (tenant: Tenant, tagId: string) => {
  const [conversation, customer, lead] = await Promise.all([
    readCounter(tenant, taggedCounter(tagId, 'conversation')),
    readCounter(tenant, taggedCounter(tagId, 'customer')),
    readCounter(tenant, taggedCounter(tagId, 'lead')),
  ]);
  return { conversation, customer, lead };
};

/** The writes that store `after` over the live tag's version read; a rename swaps the name guard (refused when taken). */
export const tagUpdate = (tenant: Tenant, stored: StoredTag, after: Tag): Write[] => {
  return [
    updateItem(
      tagEntity.key({ tenant, id: after._id }),
      'SET #name = :name, color = :color, description = :description, updatedAt = :updatedAt, gsi1sk = :gsi1sk, version = version + :one',
      {
        names: { '#name': 'name' },
        values: {
          ':name': after.name,
          ':color': after.color,
          ':description': after.description,
          ':updatedAt': after.updatedAt,
          ':gsi1sk': byName(tenant, after).gsi1sk,
          ':one': 1,
          ':version': stored.version,
        },
        condition: `${LIVE} AND version = :version`,
      },
    ),
    ...(nameKey(stored.tag.name) !== nameKey(after.name)
      ? [
          deleteItem(guard(tenant, stored.tag.name)),
          createItem({ ...guard(tenant, after.name), type: 'TAGNAME', tagId: after._id }, () => nameTaken(after.name)),
        ]
      : []),
  ];
};

/**
 * The writes that hide a live tag (as read) for its deletion, from `now` with the caller's turn until `sweepUntil`:
 * it leaves the list, the count and its name, and joins the sparse index of deletions under way.
 */
export const tagHiding = (tenant: Tenant, stored: StoredTag, now: Date, sweepUntil: Date): Write[] => {
  const { gsi2pk, gsi2sk } = tagEntity.index('gsi2', { deletingAt: now.toISOString(), tenant, id: stored.tag._id });
  return [
    updateItem(
      tagEntity.key({ tenant, id: stored.tag._id }),
      'SET deletingAt = :now, sweepUntil = :until, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk REMOVE gsi1pk, gsi1sk',
      {
        values: {
          ':until': sweepUntil.toISOString(),
          ':now': now.toISOString(),
          ':gsi2pk': gsi2pk,
          ':gsi2sk': gsi2sk,
          ':version': stored.version,
        },
        condition: `${LIVE} AND version = :version`,
      },
    ),
    deleteItem(guard(tenant, stored.tag.name)),
    bumpCounter(tenant, TAGS_COUNTER, -1),
  ];
};

/** Takes on a hidden tag's deletion until `sweepUntil`, on condition that no other caller's turn is still running at `now`. */
export const sweepTurn = (tenant: Tenant, id: string, now: Date, sweepUntil: Date): Write =>
  updateItem(tagEntity.key({ tenant, id }), 'SET sweepUntil = :until', {
    values: { ':until': sweepUntil.toISOString(), ':now': now.toISOString() },
    condition: 'attribute_not_exists(sweepUntil) OR sweepUntil <= :now',
  });

/** Last write of deleting a tag, once no entity carries it any more. */
export const tagRemoval = (tenant: Tenant, id: string): Write => deleteItem(tagEntity.key({ tenant, id }));

/** Deletions started before `before` and not finished (oldest first), across tenants. */
export const unfinishedDeletions = async (before: Date, limit: number): Promise<{ tenant: Tenant; tag: Tag }[]> => {
  const { items } = await queryPage({ index: 'gsi2', pk: tagEntity.build('gsi2pk', {}), skBelow: before.toISOString() }, { limit });
  return items.map((i) => ({ tenant: storedTenant(tagEntity.read('gsi2sk', i.gsi2sk).tenant), tag: fromItem(i) }));
};

/** For a transaction that attaches the tag: it must exist and not be in deletion. */
export const tagIsLive = (tenant: Tenant, id: string, onFail?: () => Error): Write =>
  conditionCheck(tagEntity.key({ tenant, id }), { condition: LIVE, onFail });
