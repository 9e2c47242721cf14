import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openApiDocument } from './document';

/** `npm run openapi [-- <file>]`: writes the OpenAPI document (default `openapi.json` at the repo root, git-ignored). */
const file = resolve(process.argv[2] ?? 'openapi.json');
const document = await openApiDocument();
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`${file}: ${Object.keys(document.paths ?? {}).length} paths, ${Object.keys(document.webhooks ?? {}).length} webhook events\n`);
