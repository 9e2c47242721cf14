import * as z from 'zod';
import type { Tag } from '../domain/tags/tag';
import { ENTITY_TYPES, type EntityType } from '../domain/tags/tagging';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const tag = /* @__PURE__ */ built(() =>
  exactly<Tag>()(
    z.strictObject({ _id: id, name: z.string(), color: z.string(), description: z.string().nullable(), createdAt: time, updatedAt: time }),
  ).meta({ id: 'Tag' }),
);

const perEntity = /* @__PURE__ */ built(() =>
  z.strictObject(Object.fromEntries(ENTITY_TYPES.map((t) => [t, z.number().int().min(0)])) as Record<EntityType, z.ZodNumber>),
);

/** A tag with how many conversations, customers and leads carry it. */
export const tagWithCounts = /* @__PURE__ */ built(() => tag.extend({ counts: perEntity }).meta({ id: 'TagWithCounts' }));

/** A deleted tag with how many entities this request untagged (`complete: false`: the schedule finishes the rest). */
export const deletedTag = /* @__PURE__ */ built(() =>
  tag.extend({ detached: perEntity, complete: z.boolean() }).meta({ id: 'DeletedTag' }),
);

/** One entity's tags after a change, and whether the call changed them. */
export const entityTags = /* @__PURE__ */ built(() =>
  z.strictObject({ tags: z.array(tag), changed: z.boolean() }).meta({ id: 'EntityTags' }),
);

/** What a bulk call did: the entities it changed and those already in the requested state. */
export const bulkTagging = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      action: z.enum(['tag', 'untag']),
      entityType: z.enum(ENTITY_TYPES),
      tagIds: z.array(id),
      changed: z.array(id),
      unchanged: z.array(id),
    })
    .meta({ id: 'BulkTaggingResult' }),
);
