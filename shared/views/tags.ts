import * as z from 'zod';
import type { Tag } from '../domain/tags/tag';
import { exactly, id, time } from './common';

export const tag = exactly<Tag>()(
  z.strictObject({ _id: id, name: z.string(), color: z.string(), description: z.string().nullable(), createdAt: time, updatedAt: time }),
).meta({ id: 'Tag' });
