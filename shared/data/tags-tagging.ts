import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from './outbox';
import type { Tag } from '../domain/tags/tag';
import {
  checkTaggingRequest,
  exceedsEntityLimit,
  isWellFormedId,
  planChange,
  taggingEventType,
  type EntityType,
  type TagAction,
  type TagSetChange,
} from '../domain/tags/tagging';
import { lostRace, retryOnConflict } from './retry';
import { taggedCounter, tagIdsOf, tagLinks } from './tag-links';
import { bumpCounter } from './counters';
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

/** One entity whose tags change: its item as read and the change planned from it. */
interface Planned {
  id: string;
  item: Record<string, unknown>;
  change: TagSetChange;
}

/** An entity's part of a tagging transaction: its tag set (exactly as read), its tag links and its event. */
const entityWrites = (tenant: Tenant, type: EntityType, tags: readonly Tag[], action: TagAction, now: Date, p: Planned): Write[] => {
  const data = {
    [eventEntityName[type]]: entityView(type, p.item, p.change.after),
    tags: tags.filter((t) => p.change.delta.includes(t._id)),
  };
  const event = buildEnvelope(taggingEventType(type, action), tenant, data, {
    changes: { tagIds: [p.change.before, p.change.after] },
    now,
  });
  return [
    tagSetWrite(entityKey(tenant, type, p.id), p.change.before, p.change.delta, action),
    ...tagLinks(tenant, type, p.id, p.change.delta, action === 'tag' ? 1 : -1, now),
    outboxItem(event),
  ];
};

/** What the entities of one transaction share: each tag's liveness check when attaching, and one counter write per tag. */
const sharedWrites = (tenant: Tenant, type: EntityType, action: TagAction, planned: readonly Planned[]): Write[] => {
  const counts = new Map<string, number>();
  for (const p of planned) for (const t of p.change.delta) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [
    ...(action === 'tag' ? [...counts.keys()].map((t) => tagIsLive(tenant, t, () => new TagGone(t))) : []),
    ...[...counts].map(([t, n]) => bumpCounter(tenant, taggedCounter(t, type), action === 'tag' ? n : -n)),
  ];
};

/**
 * Adds or removes `tags` on some entities in ONE transaction: each one's tag set, links and event, and per
 * tag one liveness check (attaching) and one counter write for them all. Entities whose tags would not
 * change are left out, so a repeated call writes nothing and emits no event; a lost race re-reads and
 * re-plans them all. `read` holds items the caller just read (saves the first read).
 */
const changeTagsTogether = async (
  tenant: Tenant,
  type: EntityType,
  ids: readonly string[],
  tags: readonly Tag[],
  action: TagAction,
  now: Date,
  read?: ReadonlyMap<string, Record<string, unknown>>,
): Promise<Map<string, Outcome>> => {
  let known = read;
  const wanted = tags.map((t) => t._id);
  const outcomes = new Map<string, Outcome>();
  let planned: Planned[] = [];
  try {
    await retryOnConflict(async () => {
      const items = known ?? (await readEntities(tenant, type, ids));
      known = undefined;
      planned = [];
      for (const id of ids) {
        const item = items.get(id);
        if (!item) {
          outcomes.set(id, { kind: 'entity-missing' });
          continue;
        }
        const change = planChange(tagIdsOf(item[TAG_IDS_ATTRIBUTE]), wanted, action);
        if (change.delta.length === 0) outcomes.set(id, { kind: 'unchanged', tagIds: change.after });
        else if (exceedsEntityLimit(change)) outcomes.set(id, { kind: 'over-limit' });
        else {
          planned.push({ id, item, change });
          outcomes.set(id, { kind: 'changed', tagIds: change.after });
        }
      }
      if (planned.length === 0) return;
      await transact(
        [...planned.flatMap((p) => entityWrites(tenant, type, tags, action, now, p)), ...sharedWrites(tenant, type, action, planned)],
        lostRace,
      );
    });
  } catch (error) {
    if (!(error instanceof TagGone)) throw error;
    for (const p of planned) outcomes.set(p.id, { kind: 'tag-missing', tagId: error.tagId });
  }
  return outcomes;
};

/** Adds or removes `tags` on one entity in one transaction (see `changeTagsTogether`). */
export const changeEntityTags = async (
  tenant: Tenant,
  type: EntityType,
  id: string,
  tags: readonly Tag[],
  action: TagAction,
  now: Date,
): Promise<Outcome> => (await changeTagsTogether(tenant, type, [id], tags, action, now)).get(id)!;

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

/**
 * Items of one tagging transaction at most: DynamoDB's 100, less room for the idempotency marker. An
 * entity takes 2 items and one per tag, and the transaction 2 per tag it shares among them.
 */
const MAX_TRANSACTION_ITEMS = 90;

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
  // The transactions run one after another: each writes every tag's counter, so side by side they would conflict.
  const perTransaction = Math.floor((MAX_TRANSACTION_ITEMS - 2 * wanted.length) / (2 + wanted.length));
  const byId = new Map<string, Outcome>();
  for (let i = 0; i < ids.length; i += perTransaction) {
    const some = ids.slice(i, i + perTransaction);
    for (const [id, outcome] of await changeTagsTogether(tenant, entityType, some, wanted, action, now, entities)) byId.set(id, outcome);
  }
  const outcomes = ids.map((id) => byId.get(id)!);
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
    throw new Refused('tagging_interrupted', 'Some tags or entities changed while the call ran; repeat it to see what remains', {
      changed,
      interrupted,
    });
  }
  return { changed, unchanged: done('unchanged'), tagIdsAfter };
};

/** The tag ids an entity carries, or undefined when it does not exist in this workspace. */
export const entityTagIds = async (tenant: Tenant, type: EntityType, id: string): Promise<string[] | undefined> => {
  const item = (await readEntities(tenant, type, [id])).get(id);
  return item ? tagIdsOf(item[TAG_IDS_ATTRIBUTE]) : undefined;
};
