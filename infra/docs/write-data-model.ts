import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataModelPage } from './data-model';

/** `npm run data-model`: rewrites docs/contributing/data-model.md from the key registry. */
writeFileSync(resolve(import.meta.dirname, '..', '..', 'docs', 'contributing', 'data-model.md'), dataModelPage());
process.stdout.write('docs/contributing/data-model.md written\n');
