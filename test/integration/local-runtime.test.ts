import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../support/api';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-start-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `npm start`'s entry point as a user would, on a free port, and waits for its banner. */
const start = async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, PARLEY_DATA_DIR: dataDir, PORT: '0', DYNAMODB_ENDPOINT: '', SQS_ENDPOINT: '', TABLE_NAME: '' }, // a stack of its own
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!out.includes('Press Ctrl-C')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start failed:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const baseUrl = /running at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)![1]!;
  return { child, baseUrl, output: () => out };
};

const descendants = (pid: number): number[] => {
  const kids = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n').map((s) => Number(s.trim())).filter(Boolean);
  return kids.flatMap((k) => [k, ...descendants(k)]);
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const exited = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));

describe('npm start', () => {
  let token = '';

  it('on the very first start creates a demo workspace and prints an admin token that works', async () => {
    const run = await start();
    token = /token:\s+(sk_test_[0-9A-Za-z]{48})/.exec(run.output())?.[1] ?? '';
    expect(token).not.toBe('');
    const res = await client(run.baseUrl, { token }).get('/api/v1/auth/workspaces');
    expect(res.status).toBe(200);
    expect(res.body.data.workspaces).toHaveLength(1);
    run.child.kill('SIGINT');
    await exited(run.child);
    expect(run.child.exitCode).toBe(0);
  });

  it('keeps workspaces and tokens across a restart and prints no new token', async () => {
    const run = await start();
    expect(run.output()).not.toMatch(/sk_test_/);
    const res = await client(run.baseUrl, { token }).get('/api/v1/auth/workspaces');
    expect(res.status).toBe(200);
    run.child.kill('SIGTERM');
    await exited(run.child);
  });

  it('leaves no DynamoDB Local (Java) process behind when it is killed outright', async () => {
    const run = await start();
    const java = descendants(run.child.pid!).filter((pid) => {
      const ps = (field: string) => spawnSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
      return ps('comm') === 'java' && ps('args').includes('DynamoDBLocal.jar');
    });
    expect(java).toHaveLength(1);
    run.child.kill('SIGKILL');
    await exited(run.child);
    const deadline = Date.now() + 10_000;
    while (alive(java[0]!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(java[0]!)).toBe(false);
  });
});
