import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The committed OpenAPI document (`openapi.json`, which `npm run openapi` writes and a test keeps current), as
 * its bytes. In a function's bundle this module is the document itself, gzipped (`committedDocument` in
 * infra/constructs/bundling.ts): about 50 KB, instead of the generator and, through it, every handler.
 */
export const openApiBytes = (): Buffer => readFileSync(resolve(import.meta.dirname, '..', '..', 'openapi.json'));
