import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Missing, Refused } from '../domain/refusal';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import type { Tenant } from '../domain/auth/tenant';
import { applyUpdate, nameKey, newTag, type CreateTag, type Tag, type UpdateTag } from '../domain/tags/tag';
import { bumpCounter, readCounter } from './counters';
import { tagKey } from './entity-keys';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { batchGet } from './batch-get';
import { lostRace, retryOnConflict } from './retry';
import { taggedCounter } from './tag-links';
import { queryPage, type PageRequest } from './query';
import { conditionCheck, createItem, deleteItem, transact, updateItem, type Write, type Commit } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { tag as tagView } from '../views/tags';

/**
 * Tags of a workspace.
 * - tag by id ............. pk=<tenant>#TAG#<id>            sk=TAG
 * - tags by name .......... gsi1pk=<tenant>#TAGS            gsi1sk=<name key>#<id>   (absent while deleting)
 * - name guard ............ pk=<tenant>#TAGNAME#<name key>  sk=TAGNAME  (unique names, case-insensitive)
 * - total ................. counter `tags`
 * - deletions under way ... gsi2pk=TAG_DELETIONS          gsi2sk=<deletingAt>#<tenant>#<id>  (sparse)
 * A tag being deleted keeps its item, marked `deletingAt`, until it is detached from every entity; the
 * sparse index lets a schedule finish deletions a crash or timeout interrupted.
 */
const TAGS_COUNTER = 'tags';
const listPk = (tenant: Tenant) => tenantPk(tenant, K.TAGS);
const guardKey = (tenant: Tenant, key: string) => ({ pk: tenantPk(tenant, K.TAGNAME, key), sk: K.TAGNAME });
const LIVE = 'attribute_exists(pk) AND attribute_not_exists(deletingAt)';
const DELETIONS = K.TAG_DELETIONS;

const listKeys = (tenant: Tenant, tag: Tag) => ({ gsi1pk: listPk(tenant), gsi1sk: `${nameKey(tag.name)}#${tag._id}` });

const toItem = (tenant: Tenant, tag: Tag) => ({ ...tagKey(tenant, tag._id), type: 'TAG', ...listKeys(tenant, tag), version: 1, ...tag });

const fromItem: (item: Record<string, unknown>) => Tag = itemCodec(tagView);

const nameTaken = (name: string) => new Refused('tag_name_taken', `A tag named "${name}" already exists`, { field: 'name' });

export const createTag = async (tenant: Tenant, input: CreateTag, now: Date): Promise<Tag> => {
  const tag = newTag(objectId(now.getTime()), input, now);
  await transact(
    [
      createItem(toItem(tenant, tag)),
      createItem({ ...guardKey(tenant, nameKey(tag.name)), type: 'TAGNAME', tagId: tag._id }),
      bumpCounter(tenant, TAGS_COUNTER, 1),
    ],
    () => nameTaken(tag.name),
  );
  return tag;
};

const readTagItem = async (tenant: Tenant, id: string) => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: tagKey(tenant, id), ConsistentRead: true }));
  return Item;
};

/** A live tag; a tag being deleted is already gone for every caller. */
export const getTag = async (tenant: Tenant, id: string): Promise<Tag | undefined> => {
  const item = await readTagItem(tenant, id);
  return item && !item.deletingAt ? fromItem(item) : undefined;
};

/** Live tags by id (strongly consistent), for validating the tag ids a request names. */
export const getTags = async (tenant: Tenant, ids: readonly string[]): Promise<Map<string, Tag>> => {
  const items = await batchGet([...new Set(ids)].map((id) => tagKey(tenant, id)));
  const live = items.filter((i) => !i.deletingAt).map(fromItem);
  return new Map(live.map((t) => [t._id, t]));
};

/** Live tags for `ids`, by name: what an entity's tag ids show as. */
export const tagsByName = async (tenant: Tenant, ids: readonly string[]): Promise<Tag[]> =>
  [...(await getTags(tenant, ids)).values()].sort((a, b) => nameKey(a.name).localeCompare(nameKey(b.name)));

export const listTags = async (tenant: Tenant, page: PageRequest) => {
  const [result, total] = await Promise.all([queryPage({ index: 'gsi1', pk: listPk(tenant) }, page), readCounter(tenant, TAGS_COUNTER)]);
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

/**
 * Optimistic: the write is conditional on the version read (re-run on a lost race), and a rename swaps the name
 * guard in the same transaction. A PATCH that changes no field writes nothing and returns the tag as it was.
 */
export const updateTag = (tenant: Tenant, id: string, input: UpdateTag, now: Date): Promise<Tag> =>
  retryOnConflict(async () => {
    const item = await readTagItem(tenant, id);
    if (!item || item.deletingAt) throw new Missing('Tag');
    const before = fromItem(item);
    const after = applyUpdate(before, input, now);
    if ((['name', 'color', 'description'] as const).every((k) => after[k] === before[k])) return before;
    const [oldKey, newKey] = [nameKey(before.name), nameKey(after.name)];
    const renamed = oldKey !== newKey;
    await transact(
      [
        updateItem(
          tagKey(tenant, id),
          'SET #name = :name, color = :color, description = :description, updatedAt = :updatedAt, gsi1sk = :gsi1sk, version = version + :one',
          {
            names: { '#name': 'name' },
            values: {
              ':name': after.name,
              ':color': after.color,
              ':description': after.description,
              ':updatedAt': after.updatedAt,
              ':gsi1sk': listKeys(tenant, after).gsi1sk,
              ':one': 1,
              ':version': item.version,
            },
            condition: `${LIVE} AND version = :version`,
          },
        ),
        ...(renamed
          ? [
              deleteItem(guardKey(tenant, oldKey)),
              createItem({ ...guardKey(tenant, newKey), type: 'TAGNAME', tagId: id }, () => nameTaken(after.name)),
            ]
          : []),
      ],
      lostRace,
    );
    return after;
  });

/**
 * First step of deleting a tag: hide it (no longer listed, counted, gettable or attachable) and free its
 * name, atomically. Returns the tag to the one caller that takes on its deletion until `sweepUntil`, and
 * undefined when it does not exist or another caller's turn has not run out: an interrupted deletion is taken
 * on again by a retried DELETE, while concurrent DELETEs see it gone (404) and only one of them succeeds.
 */
export const hideTag = (tenant: Tenant, id: string, now: Date, sweepUntil: Date = now): Promise<Tag | undefined> =>
  retryOnConflict(async () => {
    const item = await readTagItem(tenant, id);
    if (!item) return undefined;
    const tag = fromItem(item);
    const lease = { ':until': sweepUntil.toISOString(), ':now': now.toISOString() };
    if (item.deletingAt) {
      // Another request is still working on this deletion: to this one the tag is gone, as to a GET.
      if (typeof item.sweepUntil === 'string' && item.sweepUntil > lease[':now']) return undefined;
      await transact(
        [
          updateItem(tagKey(tenant, id), 'SET sweepUntil = :until', {
            values: lease,
            condition: 'attribute_not_exists(sweepUntil) OR sweepUntil <= :now',
          }),
        ],
        lostRace,
      );
      return tag;
    }
    await transact(
      [
        updateItem(
          tagKey(tenant, id),
          'SET deletingAt = :now, sweepUntil = :until, gsi2pk = :deletions, gsi2sk = :due REMOVE gsi1pk, gsi1sk',
          {
            values: { ...lease, ':deletions': DELETIONS, ':due': indexSk(now.toISOString(), tenant, id), ':version': item.version },
            condition: `${LIVE} AND version = :version`,
          },
        ),
        deleteItem(guardKey(tenant, nameKey(tag.name))),
        bumpCounter(tenant, TAGS_COUNTER, -1),
      ],
      lostRace,
    );
    return tag;
  });

/** Last step of deleting a tag, once no entity carries it any more. */
export const removeHiddenTag = (tenant: Tenant, id: string): Promise<Commit> => transact([deleteItem(tagKey(tenant, id))]);

/** Deletions started before `before` and not finished (oldest first), across tenants. */
export const unfinishedDeletions = async (before: Date, limit: number): Promise<{ tenant: Tenant; tag: Tag }[]> => {
  const { items } = await queryPage({ index: 'gsi2', pk: DELETIONS, skBelow: before.toISOString() }, { limit });
  return items.map((i) => ({ tenant: fromIndexSk(i.gsi2sk as string).tenant, tag: fromItem(i) }));
};

/** For a transaction that attaches the tag: it must exist and not be in deletion. */
export const tagIsLive = (tenant: Tenant, id: string, onFail?: () => Error): Write =>
  conditionCheck(tagKey(tenant, id), { condition: LIVE, onFail });
