import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { LocalStack, StackOptions } from '../../infra/local/stack';
import { CLOCK_AHEAD_ENV } from './clock-ahead';
import { startTestStack } from './stack';
import { keepChildOutput } from './unhandled';

const root = resolve(import.meta.dirname, '..', '..');

/** Lines of a child's output kept for a failing test's report: a crash test's child runs out of sight. */
const KEPT_LINES = 3000;

/** The last `KEPT_LINES` lines a child wrote on stdout and stderr, in the order they came. */
const keepTail = (child: ChildProcess) => {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - KEPT_LINES));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return lines;
};

/**
 * Parley's functions in a child `npm start` process that a crash test can SIGKILL, sharing `stack`'s
 * DynamoDB Local table and SQS emulator (which, like the managed services on AWS, survive the crash).
 */
export const childProcesses = () => {
  const children = new Set<ChildProcess>();
  /** The children started in the test running now or still running from an earlier one, with their output's tail. */
  let started: { child: ChildProcess; tail: string[] }[] = [];

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
        // Kept in memory and shown only when a test fails: with the stream reader's, the bus's and the pushes' debug lines.
        LOG_LEVEL: 'debug',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    const tail = keepTail(child);
    started.push({ child, tail });
    const baseUrl = await new Promise<string>((ready, fail) => {
      const running = () => /Parley is running at (\S+)\/api\/v1/.exec(tail.join('\n'))?.[1];
      const onData = () => {
        const url = running();
        if (!url) return;
        child.stdout!.off('data', onData);
        ready(url);
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => fail(new Error(`child process exited early (${code}): ${tail.join('\n')}`)));
    });
    return { child, baseUrl };
  };

  const kill = (child: ChildProcess) =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });

  // A failed test shows what its children wrote last; the children that ended are forgotten after each test.
  afterEach(({ task }) => {
    if (task.result?.state === 'fail')
      for (const { child, tail } of started) {
        const title = `--- "${task.name}": child ${child.pid} (exit ${child.signalCode ?? child.exitCode ?? 'running'})`;
        process.stderr.write(`${title}, its last ${tail.length} lines:\n${tail.join('\n')}\n`);
        keepChildOutput(title, tail);
      }
    started = started.filter(({ child }) => child.exitCode === null && child.signalCode === null);
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
