import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

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
const rank = (spec: TestSpecification): number => {
  const i = HEAVY.findIndex((pattern) => pattern.test(spec.moduleId));
  return i < 0 ? HEAVY.length : i;
};

class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The run's certificate and response-gate tally; one warm DynamoDB Local per worker slot (test/support/dynamo-slots.ts).
    globalSetup: ['test/support/global-setup.ts', 'test/support/dynamo-slots.ts'],
    setupFiles: ['test/support/cpu-priority.ts'],
    // Three files at a time on two cores, each with its own table, SQS emulator and workers (test/support/stack.ts):
    // with two, the cores sat idle while a file waited (docs/contributing/testing.md).
    pool: 'forks',
    maxWorkers: 3,
    // A test process allocates fast (every request's SDK and HTTP objects): with a 64 MB young generation instead
    // of 16 MB it collects less often, and four heavy files took 6 % less CPU (docs/contributing/testing.md).
    execArgv: ['--max-semi-space-size=64'],
    sequence: { sequencer: HeaviestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
