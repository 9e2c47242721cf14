import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { ValidationError, type FieldError } from '../errors';
import { built } from '../built';

/** Bulk calls name at most this many entities and tags: 100 × 10 is at most 20 transactions of 5 entities. */
const MAX_BULK_ENTITIES = 100;
const MAX_TAGS_PER_CALL = 10;
/** Bounds an entity's exact-state condition (one term per tag it carries). */
export const MAX_TAGS_PER_ENTITY = 50;

export const ENTITY_TYPES = ['conversation', 'customer', 'lead'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const isEntityType = (type: string): type is EntityType => (ENTITY_TYPES as readonly string[]).includes(type);

export type TagAction = 'tag' | 'untag';

/**
 * Ids are checked for shape together with existence, so one 422 names every failing index at once
 * (a malformed id and an unknown one are both "no such" here).
 */
const MALFORMED_ID = 'Must be a 24-character hex id';
export const isWellFormedId = (id: string): boolean => OBJECT_ID.test(id);

const Id = /* @__PURE__ */ built(() => z.string().max(64, MALFORMED_ID));

const TagIds = /* @__PURE__ */ built(() =>
  z.array(Id).min(1, 'Must name at least one tag').max(MAX_TAGS_PER_CALL, `At most ${MAX_TAGS_PER_CALL} tags per call`),
);

export const TagIdsBody = /* @__PURE__ */ built(() => z.strictObject({ tagIds: TagIds }));

export const BulkTagging = /* @__PURE__ */ built(() =>
  z.strictObject({
    entityType: z.enum(ENTITY_TYPES, { error: `Must be one of ${ENTITY_TYPES.join(', ')}` }),
    entityIds: z.array(Id).min(1, 'Must name at least one entity').max(MAX_BULK_ENTITIES, `At most ${MAX_BULK_ENTITIES} entities per call`),
    tagIds: TagIds,
  }),
);
export type BulkTagging = z.output<typeof BulkTagging>;

const sorted = (ids: Iterable<string>) => [...new Set(ids)].sort();

export interface TagSetChange {
  before: string[];
  after: string[];
  /** Tag ids actually added or removed; empty when the call changes nothing. */
  delta: string[];
}

/** What applying `action` with `tagIds` does to an entity's tag set; re-applying yields an empty delta. */
export const planChange = (current: Iterable<string>, tagIds: readonly string[], action: TagAction): TagSetChange => {
  const before = sorted(current);
  const has = new Set(before);
  const delta = sorted(tagIds.filter((id) => (action === 'tag' ? !has.has(id) : has.has(id))));
  const drop = new Set(delta);
  const after = action === 'tag' ? sorted([...before, ...delta]) : before.filter((id) => !drop.has(id));
  return { before, after, delta };
};

/** Only growth is refused, so an entity over the limit can always shed tags. */
export const exceedsEntityLimit = (change: TagSetChange): boolean =>
  change.after.length > change.before.length && change.after.length > MAX_TAGS_PER_ENTITY;

const EVENT_PREFIX = { conversation: 'inbox.conversation', customer: 'customer.contact', lead: 'crm.lead' } as const;

export const taggingEventType = (type: EntityType, action: TagAction) =>
  `${EVENT_PREFIX[type]}.${action === 'tag' ? 'tagged' : 'untagged'}` as const;

const label = { conversation: 'conversation', customer: 'customer', lead: 'lead' } as const;

/**
 * All-or-nothing validation of a tagging request against what exists: every malformed or unknown entity
 * and tag (another workspace's is simply unknown) and every entity the change would take past
 * MAX_TAGS_PER_ENTITY is reported by index in one 422. `current` holds the tag ids of the entities found.
 */
export const checkTaggingRequest = (
  req: { entityType: EntityType; entityIds: readonly string[]; tagIds: readonly string[] },
  knownTags: ReadonlySet<string>,
  current: ReadonlyMap<string, readonly string[]>,
  action: TagAction,
  entityPath: (i: number) => string,
): void => {
  const errors: FieldError[] = [
    ...req.entityIds.flatMap((id, i) => {
      if (!isWellFormedId(id)) return [{ path: entityPath(i), message: MALFORMED_ID }];
      const tagIds = current.get(id);
      if (!tagIds) return [{ path: entityPath(i), message: `No such ${label[req.entityType]} in this workspace` }];
      const change = planChange(
        tagIds,
        req.tagIds.filter((t) => knownTags.has(t)),
        action,
      );
      return exceedsEntityLimit(change) ? [{ path: entityPath(i), message: `Would carry more than ${MAX_TAGS_PER_ENTITY} tags` }] : [];
    }),
    ...req.tagIds.flatMap((id, i) =>
      knownTags.has(id) ? [] : [{ path: `tagIds[${i}]`, message: isWellFormedId(id) ? 'No such tag in this workspace' : MALFORMED_ID }],
    ),
  ];
  if (errors.length) throw new ValidationError(errors);
};
