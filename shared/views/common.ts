import * as z from 'zod';
import { OBJECT_ID } from '../ids';
import { built } from '../domain/built';

/**
 * The resource views: each entity as the API answers it and as events carry it in `data`. One schema per
 * view, used by the routes that return it and by the event catalog, so the two cannot drift. A view made
 * with `exactly` is type-checked against its entity's own type in both directions, so a field added to or
 * dropped from either fails `tsc`.
 */
export const exactly =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S & ([T] extends [z.output<S>] ? unknown : never)): S =>
    schema;

export const id = /* @__PURE__ */ built(() => z.string().regex(OBJECT_ID));
export const time = /* @__PURE__ */ built(() => z.iso.datetime());
export const nullableId = /* @__PURE__ */ built(() => id.nullable());

/** The `pagination` of every list answer. */
export const pagination = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      total: z.number().int().min(0),
      page: z.number().int().min(1).nullable().describe('The page number when fetched by `page`; null when fetched by `cursor`'),
      limit: z.number().int().min(1),
      pages: z.number().int().min(0),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable(),
    })
    .meta({ id: 'Pagination' }),
);

/** A list answer: `{<key>: [view…], pagination}`. */
export const listOf = <K extends string, S extends z.ZodType>(key: K, view: S) =>
  z.strictObject({ [key]: z.array(view), pagination } as Record<K, z.ZodArray<S>> & { pagination: typeof pagination });
