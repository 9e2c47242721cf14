import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { LocalStack, StackOptions } from '../../infra/local/stack';
import { CLOCK_AHEAD_ENV } from './clock-ahead';
import { startTestStack } from './stack';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * Parley's functions in a child `npm start` process that a crash test can SIGKILL, sharing `stack`'s
 * DynamoDB Local table and SQS emulator (which, like the managed services on AWS, survive the crash).
 */
export const childProcesses = () => {
  const children = new Set<ChildProcess>();

  /** `clockAheadMs`: the child's wall clock runs that far ahead of this process's (`clock-ahead.ts`). */
  const start = async (
    stack: LocalStack,
    dataDir: string,
    env: Record<string, string> = {},
    clockAheadMs = 0,
  ): Promise<{ child: ChildProcess; baseUrl: string }> => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/support/clock-ahead.ts', 'infra/local/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: stack.dynamoEndpoint,
        SQS_ENDPOINT: stack.sqsEndpoint,
        TABLE_NAME: stack.tableName,
        PARLEY_QUEUE_PREFIX: stack.queuePrefix,
        PORT: '0',
        PARLEY_DATA_DIR: dataDir,
        [CLOCK_AHEAD_ENV]: String(clockAheadMs),
        // Each route's handler imported at its first request (about 2 CPU s less per start); the workers' before the
        // child answers, so a restart's replay is not slowed by their first imports (a crash test's deadline runs then).
        PARLEY_PRELOAD_FUNCTIONS: 'workers',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    const baseUrl = await new Promise<string>((ready, fail) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const running = /Parley is running at (\S+)\/api\/v1/.exec(out);
        if (running) ready(running[1]!);
      });
      child.stderr!.resume();
      child.once('exit', (code) => fail(new Error(`child process exited early (${code}): ${out}`)));
    });
    return { child, baseUrl };
  };

  const kill = (child: ChildProcess) =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });

  return { start, kill, killAll: () => Promise.all([...children].map(kill)) };
};

/**
 * A crash test's rig: this file's stack without workers (its table and SQS emulator outlive the children),
 * a data folder of its own, and children started on both, all stopped and removed after the file.
 */
export const useCrashRig = (name: string, opts: StackOptions = {}) => {
  let stack: LocalStack | undefined;
  let dataDir = '';
  const children = childProcesses();
  beforeAll(async () => {
    stack = await startTestStack({ ...opts, workers: false });
    dataDir = mkdtempSync(join(tmpdir(), `parley-${name}-`));
  });
  afterAll(async () => {
    await children.killAll();
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const running = () => {
    if (!stack) throw new Error('the crash rig is used before beforeAll started it');
    return stack;
  };
  return {
    get stack() {
      return running();
    },
    get dataDir() {
      return dataDir;
    },
    kill: children.kill,
    /** A child on the rig's data folder, or on `folder` inside it. */
    start: (env: Record<string, string> = {}, clockAheadMs = 0, folder?: string) =>
      children.start(running(), folder === undefined ? dataDir : join(dataDir, folder), env, clockAheadMs),
  };
};
