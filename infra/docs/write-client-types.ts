import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from './document';

/**
 * `npm run client` (also run before `npm test` and by the client package's build): generates the typed
 * client's `packages/client/src/schema.d.ts` (never committed) from the OpenAPI document with openapi-typescript,
 * so the client's types follow every route added.
 */
const file = resolve(import.meta.dirname, '..', '..', 'packages', 'client', 'src', 'schema.d.ts');
const document = (await openApiDocument()) as unknown as OpenAPI3;
const header = '/** Generated from the OpenAPI document by `npm run client` (infra/docs/write-client-types.ts); do not edit. */\n\n';
// Written aside and renamed into place, so that a compiler reading the file meanwhile never sees half of it.
writeFileSync(`${file}.${process.pid}`, header + astToString(await openapiTS(document)));
renameSync(`${file}.${process.pid}`, file);
process.stdout.write(`${file}: ${Object.keys(document.paths ?? {}).length} paths\n`);
