/**
 * The bulk jobs' objects (exports' and imports' CSVs) live in the files bucket under this prefix, never a
 * file's key (`<tenant>/<fileId>`): the file verifier's rule skips it, the import rule listens under it.
 */
export const BULK_KEY_PREFIX = 'bulk/';
