import * as z from 'zod';
import { built } from '../built';

const MAX_TITLE_LENGTH = 200;
/** 100 KB of markdown per article keeps an article item (and its index document) far below DynamoDB's 400 KB. */
const MAX_BODY_LENGTH = 100_000;
const MAX_ARTICLE_TAGS = 20;

/** A knowledge-base article: markdown the search index splits into passages. */
export interface Article {
  _id: string;
  title: string;
  body: string;
  tags: string[];
  published: boolean;
  /** BCP 47 language tag, e.g. `en` or `pt-BR`. */
  locale: string;
  createdAt: string;
  updatedAt: string;
}

const Title = /* @__PURE__ */ built(() => z.string().trim().min(1).max(MAX_TITLE_LENGTH));
const Body = /* @__PURE__ */ built(() => z.string().trim().min(1).max(MAX_BODY_LENGTH));
const Tags = /* @__PURE__ */ built(() => z.array(z.string().trim().min(1).max(50)).max(MAX_ARTICLE_TAGS));
/** A language subtag with optional region/script subtags; Intl canonicalises it (`pt-br` → `pt-BR`). */
export const Locale = /* @__PURE__ */ built(() =>
  z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Must be a BCP 47 language tag such as en or pt-BR')
    .refine((l) => {
      try {
        return Intl.getCanonicalLocales(l).length === 1;
      } catch {
        return false;
      }
    }, 'Must be a BCP 47 language tag such as en or pt-BR')
    .transform((l) => Intl.getCanonicalLocales(l)[0]!),
);

export const CreateArticle = /* @__PURE__ */ built(() =>
  z.strictObject({
    title: Title,
    body: Body,
    tags: Tags.optional(),
    published: z.boolean().optional(),
    locale: Locale.optional(),
  }),
);
export type CreateArticle = z.output<typeof CreateArticle>;

export const UpdateArticle = /* @__PURE__ */ built(() =>
  z.strictObject({
    title: Title.optional(),
    body: Body.optional(),
    tags: Tags.optional(),
    published: z.boolean().optional(),
    locale: Locale.optional(),
  }),
);
export type UpdateArticle = z.output<typeof UpdateArticle>;

const DEFAULT_LOCALE = 'en';

const uniqueTags = (tags: string[] | undefined) => [...new Set(tags ?? [])];

export const newArticle = (id: string, input: CreateArticle, now: Date): Article => ({
  _id: id,
  title: input.title,
  body: input.body,
  tags: uniqueTags(input.tags),
  published: input.published ?? true,
  locale: input.locale ?? DEFAULT_LOCALE,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** The article after a PATCH; `changed` is false when every given field already had its value. */
export const applyArticleUpdate = (article: Article, input: UpdateArticle, now: Date): { article: Article; changed: boolean } => {
  const next = { ...article, ...input, ...(input.tags ? { tags: uniqueTags(input.tags) } : {}) };
  const changed = (['title', 'body', 'tags', 'published', 'locale'] as const).some(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(article[k]),
  );
  return { article: changed ? { ...next, updatedAt: now.toISOString() } : article, changed };
};
