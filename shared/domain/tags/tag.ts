import * as z from 'zod';
import { built } from '../built';

const MAX_TAG_NAME_LENGTH = 50;
const MAX_TAG_DESCRIPTION_LENGTH = 500;
export const DEFAULT_TAG_COLOR = '#6b7280';

export interface Tag {
  _id: string;
  name: string;
  color: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

// Control characters would make names unprintable in dashboards and ambiguous for uniqueness.
const CONTROL_CHARS = /\p{Cc}/u;

const TagName = /* @__PURE__ */ built(() =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty')
    .max(MAX_TAG_NAME_LENGTH, `Must be at most ${MAX_TAG_NAME_LENGTH} characters`)
    .refine((name) => !CONTROL_CHARS.test(name), 'Must not contain control characters'),
);

const TagColor = /* @__PURE__ */ built(() =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a hex color like #1f93ff')
    .transform((c) => c.toLowerCase()),
);

const TagDescription = /* @__PURE__ */ built(() =>
  z.string().trim().max(MAX_TAG_DESCRIPTION_LENGTH, `Must be at most ${MAX_TAG_DESCRIPTION_LENGTH} characters`),
);

export const CreateTag = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: TagName,
    color: TagColor.optional(),
    description: TagDescription.nullable().optional(),
  }),
);
export type CreateTag = z.output<typeof CreateTag>;

export const UpdateTag = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: TagName.optional(),
    color: TagColor.optional(),
    description: TagDescription.nullable().optional(),
  }),
);
export type UpdateTag = z.output<typeof UpdateTag>;

/** Names are unique per workspace regardless of case, width or composed/decomposed accents. */
export const nameKey = (name: string): string => name.trim().normalize('NFKC').toLowerCase();

export const newTag = (id: string, input: CreateTag, now: Date): Tag => ({
  _id: id,
  name: input.name,
  color: input.color ?? DEFAULT_TAG_COLOR,
  description: input.description || null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** The tag after a PATCH: only the fields present change; an empty description clears it. */
export const applyUpdate = (tag: Tag, input: UpdateTag, now: Date): Tag => ({
  ...tag,
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.color !== undefined ? { color: input.color } : {}),
  ...(input.description !== undefined ? { description: input.description || null } : {}),
  updatedAt: now.toISOString(),
});
