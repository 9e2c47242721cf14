import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript';

/**
 * `npm run client` (also run before `npm test` and by the client package's build): generates the typed
 * client's `packages/client/src/schema.d.ts` (never committed) from the OpenAPI document with openapi-typescript,
 * so the client's types follow every route added.
 */
const file = resolve(import.meta.dirname, '..', '..', 'packages', 'client', 'src', 'schema.d.ts');

/**
 * Set by a caller that made them moments ago: the client package test's `npm pack`, whose build would otherwise
 * make again (about 10 CPU s) the types `npm test`'s pretest has just made.
 */
const TYPES_MADE_ENV = 'PARLEY_CLIENT_TYPES_MADE';

if (process.env[TYPES_MADE_ENV] === 'true' && existsSync(file)) {
  process.stdout.write(`${file}: kept (${TYPES_MADE_ENV})\n`);
} else {
  // Loaded only here: building the document imports every route's handler.
  const [{ default: openapiTS, astToString }, { openApiDocument }] = await Promise.all([
    import('openapi-typescript'),
    import('./document'),
  ]);
  const document = (await openApiDocument()) as unknown as OpenAPI3;
  const header = '/** Generated from the OpenAPI document by `npm run client` (infra/docs/write-client-types.ts); do not edit. */\n\n';
  // Written aside and renamed into place, so that a compiler reading the file meanwhile never sees half of it.
  writeFileSync(`${file}.${process.pid}`, header + astToString(await openapiTS(document)));
  renameSync(`${file}.${process.pid}`, file);
  process.stdout.write(`${file}: ${Object.keys(document.paths ?? {}).length} paths\n`);
}
