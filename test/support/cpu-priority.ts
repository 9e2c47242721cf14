import { setPriority } from 'node:os';
import { expect } from 'vitest';

/**
 * A file that only computes (the CDK synth of `test/infra`) runs at a lower CPU priority, so beside it a file
 * whose emulators answer under invocation deadlines keeps both cores when it needs them; alone, it is as fast.
 */
const COMPUTE_ONLY = /\/test\/infra\//;
const YIELDING_NICENESS = 10;

if (COMPUTE_ONLY.test(expect.getState().testPath ?? '')) setPriority(YIELDING_NICENESS);
