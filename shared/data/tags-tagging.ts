import type { Tenant } from '../domain/auth/tenant';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from './outbox';
import { ConflictError } from '../domain/errors';
import type { Tag } from '../domain/tags/tag';
import {
  checkTaggingRequest,
  exceedsEntityLimit,
  isWellFormedId,
  planChange,
  taggingEventType,
  type EntityType,
  type TagAction,
} from '../domain/tags/tagging';
import { lostRace, retryOnConflict } from './retry';
import { tagIdsOf, tagLinkWrites } from './tag-links';
import { TAG_IDS_ATTRIBUTE } from './entity-keys';
import { entityKey, entityView, eventEntityName, readEntities } from './tags-entities';
import { getTags, tagIsLive } from './tags';
import { transact, updateItem, type Write } from './transact';

export type Outcome =
  | { kind: 'changed' | 'unchanged'; tagIds: string[] }
  | { kind: 'entity-missing' }
  | { kind: 'tag-missing'; tagId: string }
  | { kind: 'over-limit' };

class TagGone extends Error {
  constructor(readonly tagId: string) {
    super('tag deleted while attaching');
  }
}

/** The entity update only commits if its tag set is exactly the one read: events carry a true before/after. */
const tagSetWrite = (key: { pk: string; sk: string }, before: string[], delta: string[], action: TagAction): Write => {
  const members = before.map((_, i) => `contains(#tags, :b${i})`);
  const exact = before.length === 0 ? 'attribute_not_exists(#tags)' : ['size(#tags) = :n', ...members].join(' AND ');
  return updateItem(key, `${action === 'tag' ? 'ADD' : 'DELETE'} #tags :delta`, {
    names: { '#tags': TAG_IDS_ATTRIBUTE },
    values: {
      ':delta': new Set(delta),
      ...(before.length ? { ':n': before.length } : {}),
      ...Object.fromEntries(before.map((t, i) => [`:b${i}`, t])),
    },
    condition: `attribute_exists(pk) AND ${exact}`,
  });
};

/**
 * Adds or removes `tags` on one entity in ONE transaction: the tag set, one link item and one counter per
 * tag, and the event. Attaching also checks each tag is still live. Nothing is written when nothing
 * changes, so a repeated call emits no event; a lost race re-reads and re-plans.
 */
export const changeEntityTags = async (
  tenant: Tenant,
  type: EntityType,
  id: string,
  tags: readonly Tag[],
  action: TagAction,
  now: Date,
  /** The entity item if the caller just read it: saves the first read; a lost race reads again. */
  read?: Record<string, unknown>,
): Promise<Outcome> => {
  let known = read;
  try {
    return await retryOnConflict(async (): Promise<Outcome> => {
      const item = known ?? (await readEntities(tenant, type, [id])).get(id);
      known = undefined;
      if (!item) return { kind: 'entity-missing' };
      const change = planChange(
        tagIdsOf(item[TAG_IDS_ATTRIBUTE]),
        tags.map((t) => t._id),
        action,
      );
      if (change.delta.length === 0) return { kind: 'unchanged', tagIds: change.after };
      if (exceedsEntityLimit(change)) return { kind: 'over-limit' };
      const data = {
        [eventEntityName[type]]: entityView(type, item, change.after),
        tags: tags.filter((t) => change.delta.includes(t._id)),
      };
      const event = buildEnvelope(taggingEventType(type, action), tenant, data, {
        changes: { tagIds: [change.before, change.after] },
        now,
      });
      await transact(
        [
          tagSetWrite(entityKey(tenant, type, id), change.before, change.delta, action),
          ...(action === 'tag' ? change.delta.map((t) => tagIsLive(tenant, t, () => new TagGone(t))) : []),
          ...tagLinkWrites(tenant, type, id, change.delta, action === 'tag' ? 1 : -1, now),
          outboxItem(event),
        ],
        lostRace,
      );
      return { kind: 'changed', tagIds: change.after };
    });
  } catch (error) {
    if (error instanceof TagGone) return { kind: 'tag-missing', tagId: error.tagId };
    throw error;
  }
};

/** Runs `fn` over `items` with at most `limit` in flight, keeping order. */
export const mapLimit = async <T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
};

/** Entity transactions in flight per call: they share hot counter items, so more only adds conflicts. */
const APPLY_CONCURRENCY = 4;

export interface TaggingRequest {
  entityType: EntityType;
  entityIds: readonly string[];
  tagIds: readonly string[];
}

export interface TaggingResult {
  /** Entities whose tags this call changed (one event each). */
  changed: string[];
  /** Entities that already were in the requested state. */
  unchanged: string[];
  /** Each entity's tag ids after the call. */
  tagIdsAfter: Map<string, string[]>;
}

/**
 * Tags or untags entities, all-or-nothing in validation: every unknown tag or entity (including another
 * workspace's, which is simply not found here) is reported by index and nothing is written. Then one
 * transaction per entity, so an interrupted call leaves each entity either done or untouched, and
 * repeating it finishes the rest without a duplicate write or event.
 * `single` is for the per-entity routes: a missing entity is their 404 and errors name the body's `tagIds`.
 */
export const applyTagging = async (
  tenant: Tenant,
  req: TaggingRequest,
  action: TagAction,
  now: Date,
  single?: { notFound: () => Error },
): Promise<TaggingResult> => {
  const { entityType } = req;
  const [tags, entities] = await Promise.all([
    getTags(tenant, req.tagIds.filter(isWellFormedId)),
    readEntities(tenant, entityType, req.entityIds.filter(isWellFormedId)),
  ]);
  if (single && entities.size === 0) throw single.notFound();
  const current = new Map([...entities].map(([id, item]) => [id, tagIdsOf(item[TAG_IDS_ATTRIBUTE])]));
  checkTaggingRequest({ ...req, entityType }, new Set(tags.keys()), current, action, (i) => (single ? 'tagIds' : `entityIds[${i}]`));

  const ids = [...new Set(req.entityIds)];
  const wanted = [...tags.values()];
  const outcomes = await mapLimit(ids, APPLY_CONCURRENCY, (id) =>
    changeEntityTags(tenant, entityType, id, wanted, action, now, entities.get(id)),
  );
  const done = (kind: Outcome['kind']) => ids.filter((_, i) => outcomes[i]!.kind === kind);
  const changed = done('changed');
  const tagIdsAfter = new Map(
    ids.flatMap((id, i) => {
      const outcome = outcomes[i]!;
      return 'tagIds' in outcome ? [[id, outcome.tagIds] as const] : [];
    }),
  );
  if (tagIdsAfter.size < ids.length) {
    const interrupted = ids.filter((id) => !tagIdsAfter.has(id));
    throw new ConflictError('Some tags or entities changed while the call ran; repeat it to see what remains', { changed, interrupted });
  }
  return { changed, unchanged: done('unchanged'), tagIdsAfter };
};

/** The tag ids an entity carries, or undefined when it does not exist in this workspace. */
export const entityTagIds = async (tenant: Tenant, type: EntityType, id: string): Promise<string[] | undefined> => {
  const item = (await readEntities(tenant, type, [id])).get(id);
  return item ? tagIdsOf(item[TAG_IDS_ATTRIBUTE]) : undefined;
};
