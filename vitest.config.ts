import { defineConfig } from 'vitest/config';
import HeaviestFirst from './test/support/sequencer';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Two cores: two files at a time, each file with its own in-memory DynamoDB Local (test/support/stack.ts).
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
