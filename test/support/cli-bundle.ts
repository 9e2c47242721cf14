import { join } from 'node:path';
import { build } from 'esbuild';

const CLI_BUNDLE_ENV = 'PARLEY_TEST_CLI_BUNDLE';

/**
 * The CLI's own source in one file, built once per run: a command then starts in a third of the time `tsx` takes
 * to compile its 160 modules on every call. `packages/cli/bin.mjs`, what `npx parley` runs, is tested on its own.
 */
export const buildCliBundle = async (dir: string) => {
  const outfile = join(dir, 'parley.mjs');
  await build({
    entryPoints: ['packages/cli/parley.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    // Bundled CommonJS packages (commander) still call require for Node's own modules.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  process.env[CLI_BUNDLE_ENV] = outfile;
};

/** The node arguments that run `parley <args>`. */
export const parleyArgv = (...args: string[]) => {
  const bundle = process.env[CLI_BUNDLE_ENV];
  if (!bundle) throw new Error(`${CLI_BUNDLE_ENV} is unset: test/support/global-setup.ts builds the CLI`);
  return [bundle, ...args];
};
