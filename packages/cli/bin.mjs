#!/usr/bin/env node
// The `parley` bin (`npx parley …`): runs the TypeScript CLI through tsx, with nothing else on stdout.
import { register } from 'tsx/esm/api';

register();
await import('./parley.ts');
