import * as z from 'zod';
import { importJob as importView } from '../../views/imports';
import { declare } from './define';

const importPk = 'WS#<tenant>#IMPORT#<id>';

export const importJob = /* @__PURE__ */ declare({
  name: 'Import',
  itemTypes: ['IMPORT'],
  personal: [],
  about:
    'A CSV import of customers or leads (its CSV is the object `bulk/imports/<tenant>/<id>.csv` in the files bucket) with its `cursor` (data records applied, in file order), its counts and the CSV’s header row; ' +
    'its row outcomes and failed rows share its partition. Everything carries a TTL of 7 days.',
  prefixes: ['IMPORT'],
  keys: { pk: importPk, sk: 'IMPORT' },
  patterns: [{ read: 'import by id', by: 'pk=<tenant>#IMPORT#<id> sk=IMPORT' }],
  schema: () => importView.extend({ cursor: z.number().default(0), header: z.array(z.string()).default([]) }),
});

export const importRow = /* @__PURE__ */ declare({
  name: 'Import row outcome',
  itemTypes: ['IMPORT_ROW'],
  personal: [],
  about:
    "What a data record of an import became, created in the same transaction as the record's change, so a record is applied once however often a crash makes a worker read it. The record's index is zero-padded to 9 digits, so the sort keys run in file order.",
  prefixes: ['ROW'],
  keys: { pk: importPk, sk: 'ROW#<record>' },
  patterns: [{ read: 'a row’s outcome', by: 'pk=<tenant>#IMPORT#<id> sk=ROW#<record>' }],
  schema: () => z.object({ status: z.enum(['created', 'updated', 'unchanged', 'failed']) }),
});

export const importFailure = /* @__PURE__ */ declare({
  name: 'Import failed row',
  itemTypes: ['IMPORT_FAILURE'],
  // A failed row keeps the row's own cells (names, emails, phones) for the errors CSV.
  personal: ['cells'],
  about: "A failed data record of an import: its line, reason and cells, for the errors CSV (keyed as the row's outcome).",
  prefixes: ['FAIL'],
  keys: { pk: importPk, sk: 'FAIL#<record>' },
  patterns: [{ read: 'failed rows in order', by: 'pk=<tenant>#IMPORT#<id> sk begins_with FAIL#' }],
  schema: () => z.object({ line: z.number(), reason: z.string(), cells: z.array(z.string()) }),
});
