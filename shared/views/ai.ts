import * as z from 'zod';
import type { Article } from '../domain/ai/article';
import { exactly, id, time } from './common';

export const article = exactly<Article>()(
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
).meta({ id: 'Article' });
