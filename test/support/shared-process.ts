import { afterAll, vi } from 'vitest';

/**
 * The unit files share their worker processes (`isolate: false` in `vitest.config.ts`): a process and the
 * packages it imported (zod, fast-check, the AWS SDK) serve file after file. Each file still starts as it would
 * in a fresh process: the environment as the process began, the project's own modules evaluated anew (a module
 * that read the environment when it loaded reads it again), and real timers once it is done. A file that mocks
 * a module runs in a process of its own (the mocks would outlive the file).
 */
const PRISTINE = Symbol.for('parley.test.pristine-env');
const store = globalThis as { [PRISTINE]?: NodeJS.ProcessEnv };
store[PRISTINE] ??= { ...process.env };
const pristine = store[PRISTINE];

// Vitest's own variables (the worker and pool ids) are its to set for each file.
const ours = (name: string) => !name.startsWith('VITEST');
for (const name of Object.keys(process.env)) if (ours(name) && !(name in pristine)) delete process.env[name];
for (const [name, value] of Object.entries(pristine)) if (ours(name)) process.env[name] = value;
vi.resetModules();

afterAll(() => {
  vi.useRealTimers();
});
