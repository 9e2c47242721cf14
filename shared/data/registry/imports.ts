import { entity } from './define';

export const importJob = entity({
  name: 'Import',
  itemTypes: ['IMPORT', 'IMPORT_ROW', 'IMPORT_FAILURE'],
  // A failed row keeps the row's own cells (names, emails, phones) for the errors CSV.
  personal: ['cells'],
  about:
    'A CSV import of customers or leads (its CSV is the object `bulk/imports/<tenant>/<id>.csv` in the files bucket) with its cursor and counts; ' +
    'each data row read leaves an outcome item (`ROW#`, written in the same transaction as the row’s change) and a failed row its cells and reason (`FAIL#`). All carry a TTL of 7 days.',
  prefixes: ['IMPORT', 'ROW', 'FAIL'],
  keys: { pk: '<tenant>#IMPORT#<id>', sk: 'IMPORT | ROW#<record> | FAIL#<record>' },
  patterns: [
    { read: 'import by id', by: 'pk=<tenant>#IMPORT#<id> sk=IMPORT' },
    { read: 'a row’s outcome', by: 'pk=<tenant>#IMPORT#<id> sk=ROW#<record>' },
    { read: 'failed rows in order', by: 'pk=<tenant>#IMPORT#<id> sk begins_with FAIL#' },
  ],
});
