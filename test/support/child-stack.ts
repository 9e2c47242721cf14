import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { LocalStack } from '../../infra/local/stack';
import { CLOCK_AHEAD_ENV } from './clock-ahead';

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
        PORT: '0',
        PARLEY_DATA_DIR: dataDir,
        [CLOCK_AHEAD_ENV]: String(clockAheadMs),
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
