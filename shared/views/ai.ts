import * as z from 'zod';
import type { Article } from '../domain/ai/article';
import type { Passage } from '../domain/ai/passages';
import { AUTO_REPLY_MODES, PROVIDERS, TONES, type AiSettings } from '../domain/ai/settings';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const article = /* @__PURE__ */ built(() =>
  exactly<Article>()(
    z.strictObject({
      _id: id,
      title: z.string(),
      body: z.string(),
      tags: z.array(z.string()),
      published: z.boolean(),
      locale: z.string(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Article' }),
);

/** An article as lists show it: without its body. */
export const articleSummary = /* @__PURE__ */ built(() => article.omit({ body: true }).meta({ id: 'ArticleSummary' }));

export const passage = /* @__PURE__ */ built(() =>
  exactly<Passage>()(
    z.strictObject({
      articleId: id,
      title: z.string(),
      text: z.string(),
      locale: z.string(),
      score: z.number(),
      confidence: z.number().min(0).max(1),
    }),
  ).meta({ id: 'Passage' }),
);

export const suggestion = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      question: z.string(),
      passages: z.array(passage),
      confidence: z.number().min(0).max(1),
      reply: z.string().nullable(),
      decision: z.discriminatedUnion('action', [
        z.strictObject({ action: z.literal('reply') }),
        z.strictObject({
          action: z.literal('handoff'),
          reason: z.enum(['keyword', 'low_confidence', 'no_match']),
          keywords: z.array(z.string()).optional(),
        }),
      ]),
      /** The incoming messages the suggestion answers. */
      messageIds: z.array(id),
    })
    .meta({ id: 'Suggestion' }),
);

export const settings = /* @__PURE__ */ built(() =>
  exactly<AiSettings>()(
    z.strictObject({
      enabled: z.boolean(),
      autoReply: z.enum(AUTO_REPLY_MODES),
      confidenceThreshold: z.number().min(0).max(1),
      handoffKeywords: z.array(z.string()),
      tone: z.enum(TONES),
      language: z.string().nullable(),
      provider: z.enum(PROVIDERS),
      updatedAt: time.nullable(),
    }),
  ).meta({ id: 'AiSettings' }),
);
