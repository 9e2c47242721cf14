import { entity } from './define';

export const file = entity({
  name: 'File',
  itemTypes: ['FILE'],
  personal: ['name', 'description'],
  about:
    "A file's record (its bytes are the object `<tenant>/<id>` in the files bucket), listed newest first; once a message holds it, also under its conversation. A pending record carries a TTL.",
  prefixes: ['FILE', 'FILES', 'CONVFILES'],
  keys: {
    pk: '<tenant>#FILE#<id>',
    sk: 'FILE',
    gsi1pk: '<tenant>#FILES',
    gsi1sk: '<id>',
    gsi2pk: '<tenant>#CONVFILES#<conversation id>',
    gsi2sk: '<id>',
  },
  patterns: [
    { read: 'file by id', by: 'pk=<tenant>#FILE#<id> sk=FILE' },
    { read: 'files newest first', by: 'gsi1pk=<tenant>#FILES', index: 'gsi1' },
    { read: "a conversation's files", by: 'gsi2pk=<tenant>#CONVFILES#<conversation id>', index: 'gsi2' },
  ],
});
