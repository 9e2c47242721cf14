import * as z from 'zod';
import { tag as tagView } from '../../views/tags';
import { ENTITY_TYPES } from '../../domain/tags/tagging';
import { declare } from './define';

export const tag = /* @__PURE__ */ declare({
  name: 'Tag',
  about: "A tag, listed by name; one being deleted is in the sweeper's sparse index instead.",
  prefixes: ['TAG', 'TAGS', 'TAG_DELETIONS'],
  keys: {
    pk: 'WS#<tenant>#TAG#<id>',
    sk: 'TAG',
    gsi1pk: 'WS#<tenant>#TAGS',
    gsi1sk: '<nameKey>#<id>',
    gsi2pk: 'TAG_DELETIONS',
    gsi2sk: '<deletingAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'tag by id', by: 'pk=<tenant>#TAG#<id> sk=TAG' },
    { read: 'tags by name', by: 'gsi1pk=<tenant>#TAGS', index: 'gsi1' },
    { read: 'deletions under way', by: 'gsi2pk=TAG_DELETIONS gsi2sk < now', index: 'gsi2' },
  ],
  itemTypes: ['TAG'],
  personal: [],
  schema: () => tagView.extend({ version: z.number(), deletingAt: z.string().optional(), sweepUntil: z.string().optional() }),
});

export const tagName = /* @__PURE__ */ declare({
  name: 'Tag name guard',
  about: 'Keeps tag names unique, case-insensitively.',
  prefixes: ['TAGNAME'],
  keys: { pk: 'WS#<tenant>#TAGNAME#<nameKey>', sk: 'TAGNAME' },
  patterns: [{ read: 'tag by name', by: 'pk=<tenant>#TAGNAME#<nameKey> sk=TAGNAME' }],
  itemTypes: ['TAGNAME'],
  personal: [],
  schema: () => z.object({ tagId: z.string() }),
});

export const tagLink = /* @__PURE__ */ declare({
  name: 'Tag link',
  about: 'One item per tagged entity (conversation, customer or lead), so entities are listed by tag in O(page).',
  prefixes: ['TAGGED'],
  keys: { pk: 'WS#<tenant>#TAGGED#<tagId>', sk: '<entityType>#<entityId>' },
  patterns: [{ read: 'entities of a type with a tag', by: 'pk=<tenant>#TAGGED#<tagId> sk begins_with <entityType>#' }],
  itemTypes: ['TAG_LINK'],
  personal: [],
  schema: () => z.object({ tagId: z.string(), entityType: z.enum(ENTITY_TYPES), entityId: z.string(), createdAt: z.string() }),
});
