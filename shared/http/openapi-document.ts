import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The committed OpenAPI document (`openapi.json`, which `npm run openapi` writes and a test keeps current), as
 * minified JSON text. In a function's bundle this module is the document itself, minified and gzipped
 * (`committedDocument` in infra/constructs/bundling.ts): about 75 KB of base64, instead of the generator and, through it,
 * every handler.
 */
export const openApiDocumentText = (): string =>
  JSON.stringify(JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'openapi.json'), 'utf8')));
