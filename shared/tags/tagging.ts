import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { Refused } from '../domain/refusal';
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
import { buildEnvelope } from '../events/envelope';
import { fromItem as conversationFromItem } from '../data/conversations';
import { fromItem as customerFromItem } from '../data/customers';
import { TAG_IDS_ATTRIBUTE } from '../data/entity-keys';
import { fromItem as leadFromItem } from '../data/leads';
import { outboxItem } from '../data/outbox';
import { lostRace, retryOnConflict } from '../data/retry';
import { tagIdsOf } from '../data/tag-links';
import { getTag, getTags, tagsByName } from '../data/tags';
import { readEntities } from '../data/tags-entities';
import { entityTagWrites, tagCountWrites } from '../data/tags-tagging';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';

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

/** The entities tags reach into, in their owning areas' public shapes. */
const VIEWS = { conversation: conversationFromItem, customer: customerFromItem, lead: leadFromItem } as const;

/** The catalog's entity name in event data: `inbox.conversation.*` → conversation, `customer.contact.*` → contact. */
const eventEntityName = { conversation: 'conversation', customer: 'contact', lead: 'lead' } as const;

/** One entity whose tags change: its item as read and the change planned from it. */
interface Planned {
  id: string;
  item: Record<string, unknown>;
  change: TagSetChange;
}

/** An entity's part of a tagging transaction: its tag set (exactly as read), its tag links and its event. */
const entityWrites = (tenant: Tenant, type: EntityType, tags: readonly Tag[], action: TagAction, now: Date, p: Planned): Write[] => {
  const data = {
    [eventEntityName[type]]: { ...VIEWS[type](p.item), [TAG_IDS_ATTRIBUTE]: p.change.after },
    tags: tags.filter((t) => p.change.delta.includes(t._id)),
  };
  const event = buildEnvelope(taggingEventType(type, action), tenant, data, {
    changes: { tagIds: [p.change.before, p.change.after] },
    now,
  });
  return [...entityTagWrites(tenant, type, p.id, p.change, action, now), outboxItem(event)];
};

/** Per tag, how many of the planned entities join (or leave) it. */
const countsOf = (planned: readonly Planned[]) => {
  const counts = new Map<string, number>();
  for (const p of planned) for (const t of p.change.delta) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
};

/**
 * Adds or removes `tags` on some entities in ONE transaction: each one's tag set, links and event, and per
 * tag one liveness check (attaching) and one counter write for them all. Entities whose tags would not
 * change are left out, so a repeated call writes nothing and emits no event; a lost race re-reads and
 * re-plans them all. `read` holds items the caller just read (saves the first read).
 */
const changeTagsTogether = async (
  unit: Unit,
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
      await unit.commit(
        [
          ...planned.flatMap((p) => entityWrites(tenant, type, tags, action, now, p)),
          ...tagCountWrites(tenant, type, action, countsOf(planned), (t) => new TagGone(t)),
        ],
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
  unit: Unit,
  tenant: Tenant,
  type: EntityType,
  id: string,
  tags: readonly Tag[],
  action: TagAction,
  now: Date,
): Promise<Outcome> => (await changeTagsTogether(unit, tenant, type, [id], tags, action, now)).get(id)!;

/**
 * Items of one tagging transaction at most: DynamoDB's 100, less room for the idempotency marker. An
 * entity takes 2 items and one per tag, and the transaction 2 per tag it shares among them.
 */
const MAX_TRANSACTION_ITEMS = 90;

interface TaggingRequest {
  entityType: EntityType;
  entityIds: readonly string[];
  tagIds: readonly string[];
}

interface TaggingResult {
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
  unit: Unit,
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
    for (const [id, outcome] of await changeTagsTogether(unit, tenant, entityType, some, wanted, action, now, entities))
      byId.set(id, outcome);
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

const notFound = {
  conversation: () => new NotFoundError('Conversation'),
  customer: () => new NotFoundError('Customer'),
  lead: () => new NotFoundError('Lead'),
};

/** Tags or untags one entity (a 404 when it does not exist); answers its tags after the call and whether it changed. */
const change = async (unit: Unit, tenant: Tenant, type: EntityType, id: string, tagIds: string[], action: TagAction, now: Date) => {
  const result = await applyTagging(unit, tenant, { entityType: type, entityIds: [id], tagIds }, action, now, { notFound: notFound[type] });
  return { tags: await tagsByName(tenant, result.tagIdsAfter.get(id)!), changed: result.changed.length > 0 };
};

/** The tags one entity carries, by name; a 404 when the entity does not exist. */
export const tagsOf = async (tenant: Tenant, type: EntityType, id: string) => {
  const item = (await readEntities(tenant, type, [id])).get(id);
  if (!item) throw notFound[type]();
  return tagsByName(tenant, tagIdsOf(item[TAG_IDS_ATTRIBUTE]));
};

export const addTags = (unit: Unit, tenant: Tenant, type: EntityType, id: string, tagIds: string[], now: Date) =>
  change(unit, tenant, type, id, tagIds, 'tag', now);

/**
 * Removes one tag from one entity and answers the tag; a 404 when the tag does not exist or the entity does not
 * carry it (any more), as a repeated DELETE of any resource answers.
 */
export const removeTag = async (unit: Unit, tenant: Tenant, type: EntityType, id: string, tagId: string, now: Date) => {
  const tag = await getTag(tenant, tagId);
  if (!tag) throw new NotFoundError('Tag');
  const { changed } = await change(unit, tenant, type, id, [tagId], 'untag', now);
  if (!changed) throw new NotFoundError('Tag');
  return tag;
};
