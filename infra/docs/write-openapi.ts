import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openApiDocument, openApiText } from './document';

/** `npm run openapi [-- <file>]`: writes the OpenAPI document (default `openapi.json` at the repo root, committed: a test fails when it is stale). */
const file = resolve(process.argv[2] ?? 'openapi.json');
const document = await openApiDocument();
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, await openApiText());
process.stdout.write(
  `${file}: ${Object.keys(document.paths ?? {}).length} paths, ${Object.keys(document.webhooks ?? {}).length} webhook events\n`,
);
