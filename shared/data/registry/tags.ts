import { entity } from './define';

export const tag = entity({
  name: 'Tag',
  about: "A tag, listed by name; one being deleted is in the sweeper's sparse index instead.",
  prefixes: ['TAG', 'TAGS', 'TAG_DELETIONS'],
  keys: {
    pk: '<tenant>#TAG#<id>',
    sk: 'TAG',
    gsi1pk: '<tenant>#TAGS',
    gsi1sk: '<name key>#<id>',
    gsi2pk: 'TAG_DELETIONS',
    gsi2sk: '<deletingAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'tag by id', by: 'pk=<tenant>#TAG#<id> sk=TAG' },
    { read: 'tags by name', by: 'gsi1pk=<tenant>#TAGS', index: 'gsi1' },
    { read: 'deletions under way', by: 'gsi2pk=TAG_DELETIONS gsi2sk < now', index: 'gsi2' },
  ],
});

export const tagName = entity({
  name: 'Tag name guard',
  about: 'Keeps tag names unique, case-insensitively.',
  prefixes: ['TAGNAME'],
  keys: { pk: '<tenant>#TAGNAME#<name key>', sk: 'TAGNAME' },
  patterns: [{ read: 'tag by name', by: 'pk=<tenant>#TAGNAME#<name key> sk=TAGNAME' }],
});

export const tagLink = entity({
  name: 'Tag link',
  about: 'One item per tagged entity, so entities are listed by tag in O(page).',
  prefixes: ['TAGGED'],
  keys: { pk: '<tenant>#TAGGED#<tag id>', sk: '<conversation|customer|lead>#<entity id>' },
  patterns: [{ read: 'entities of a type with a tag', by: 'pk=<tenant>#TAGGED#<tag id> sk begins_with <type>#' }],
});
