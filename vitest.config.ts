import { readdirSync, readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The files that run for minutes, heaviest first (measured on 2 cores): started first, the short files fill
 * in beside them instead of one long file trailing at the end of the run. The rest keep vitest's order.
 */
const HEAVY = [
  /\/test\/gates\/schema-fuzz\./,
  /\/test\/gates\//,
  /-crash\.test\.ts$/,
  /\/local-runtime\.test\.ts$/,
  /-deactivation\.test\.ts$/,
];
/**
 * The unit files that share their worker processes (test/support/shared-process.ts): all but those that mock a
 * module, whose mocks would outlive them there. They run last, one after another in the same few processes.
 */
const SHARED = 'shared';
const testFiles = (dir: string, leave: RegExp) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`)
    .filter((f) => !leave.test(readFileSync(f, 'utf8')));
const sharedProcessFiles = testFiles('test/unit', /\bvi\.mock\(/);
/**
 * The CDK files share their processes too, and with them aws-cdk-lib and the apps they only read (`sharedSynth`
 * in test/infra/synth.ts): all but a file that sets the process's environment, which the next file would inherit.
 */
const cdkFiles = testFiles('test/infra', /\bvi\.mock\(|Object\.assign\(process\.env\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/);

const rank = (spec: TestSpecification): number => {
  if (spec.project.name === SHARED) return HEAVY.length + 1;
  const i = HEAVY.findIndex((pattern) => pattern.test(spec.moduleId));
  return i < 0 ? HEAVY.length : i;
};

class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** What every file gets, in a process of its own or in a shared one. */
const common = {
  setupFiles: ['test/support/cpu-priority.ts'],
  pool: 'forks',
  // A test process allocates fast (every request's SDK and HTTP objects): with a 64 MB young generation instead
  // of 16 MB it collects less often, and four heavy files took 6 % less CPU (docs/contributing/testing.md).
  execArgv: ['--max-semi-space-size=64'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
} satisfies TestProjectInlineConfiguration['test'];

export default defineConfig({
  test: {
    // The run's certificate and response-gate tally; one warm DynamoDB Local and SQS emulator per worker slot (test/support/slots.ts).
    globalSetup: ['test/support/global-setup.ts', 'test/support/slots.ts'],
    // Three files at a time on two cores, each with its own table, SQS emulator and workers (test/support/stack.ts):
    // with two, the cores sat idle while a file waited (docs/contributing/testing.md).
    maxWorkers: 3,
    sequence: { sequencer: HeaviestFirst },
    projects: [
      { test: { ...common, name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...sharedProcessFiles, ...cdkFiles] } },
      // Measured on test/infra's 17 files alone: 257 and 238 CPU s with a process each, 189 and 142 with these shared (docs/contributing/testing.md).
      { test: { ...common, name: 'cdk', include: cdkFiles, isolate: false } },
      // A fresh process per unit file cost more CPU than its tests: shared, the unit files took 42 % less (docs/contributing/testing.md).
      {
        test: {
          ...common,
          name: SHARED,
          include: sharedProcessFiles,
          isolate: false,
          setupFiles: [...common.setupFiles, 'test/support/shared-process.ts'],
        },
      },
    ],
  },
});
