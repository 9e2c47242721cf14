import { file as fileView } from '../../views/files';
import { declare } from './define';

export const file = /* @__PURE__ */ declare({
  name: 'File',
  itemTypes: ['FILE'],
  personal: ['name'],
  about:
    "A file's record (its bytes are the object `<tenant>/<id>` in the files bucket), listed newest first once it is ready; once a message holds it, also under its conversation. A pending record carries a TTL (24 h after its creation). The counter `storage` holds the ready files and the bytes they hold, kept with every change of status.",
  prefixes: ['FILE', 'FILES', 'CONVFILES'],
  keys: {
    pk: 'WS#<tenant>#FILE#<id>',
    sk: 'FILE',
    gsi1pk: 'WS#<tenant>#FILES',
    gsi1sk: '<id>',
    gsi2pk: 'WS#<tenant>#CONVFILES#<conversationId>',
    gsi2sk: '<id>',
  },
  patterns: [
    { read: 'file by id', by: 'pk=<tenant>#FILE#<id> sk=FILE' },
    { read: 'ready files newest first', by: 'gsi1pk=<tenant>#FILES', index: 'gsi1' },
    { read: "a conversation's files", by: 'gsi2pk=<tenant>#CONVFILES#<conversationId>', index: 'gsi2' },
  ],
  schema: () => fileView,
});
