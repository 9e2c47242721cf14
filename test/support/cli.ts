import { parleyArgv } from './cli-bundle';
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';

/** The real CLI, run as a user would, against a test file's local table. */
export const cliFor = (stack: () => LocalStack) => {
  const targetEnv = () => ({ ...process.env, DYNAMODB_ENDPOINT: stack().dynamoEndpoint, TABLE_NAME: stack().tableName });
  const parley = (...args: string[]) => {
    const res = spawnSync(process.execPath, parleyArgv(...args), {
      encoding: 'utf8',
      env: targetEnv(),
      timeout: 30_000,
    });
    return { code: res.status, stdout: res.stdout, stderr: res.stderr };
  };
  /** A command that must succeed with `--json`: its parsed output. */
  const json = (...args: string[]) => {
    const res = parley(...args, '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout);
  };
  return { targetEnv, parley, json };
};
