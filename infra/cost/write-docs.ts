import { readFileSync, writeFileSync } from 'node:fs';
import { generatedRegions, pagePath, withRegion } from './docs';

/** `npm run cost:docs`: rewrites the generated cost regions of the README and docs/operations/cost.md. */
for (const [file, body] of Object.entries(generatedRegions()))
  writeFileSync(pagePath(file), withRegion(readFileSync(pagePath(file), 'utf8'), body, file));
