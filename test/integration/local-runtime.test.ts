import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../support/api';

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-start-'));
  tempDirs.push(dir);
  return dir;
};
const dataDir = tempDir();
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `npm start`'s entry point as a user would, with a stack of its own. `detached` gives it its own
 * process group, as a terminal does, so a Ctrl-C can be sent to the whole group. `unreaped` runs it under a
 * parent that never reaps its children (`sleep`, as a container's init that does not): killed, it stays a zombie.
 */
const spawnStart = (opts: { dir?: string; port?: number; detached?: boolean; unreaped?: boolean } = {}) => {
  const command = [process.execPath, '--import', 'tsx', 'infra/local/start.ts'];
  const [file, ...args] = opts.unreaped ? ['sh', '-c', '"$@" & exec sleep 600', 'sh', ...command] : command;
  const child = spawn(file!, args, {
    env: {
      ...process.env,
      PARLEY_DATA_DIR: opts.dir ?? dataDir,
      PORT: String(opts.port ?? 0),
      DYNAMODB_ENDPOINT: '',
      SQS_ENDPOINT: '',
      TABLE_NAME: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached,
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return { child, out };
};

/** Starts Parley and waits for its banner. */
const start = async (opts: Parameters<typeof spawnStart>[0] = {}) => {
  const { child, out } = spawnStart(opts);
  const output = () => out.stdout + out.stderr;
  const deadline = Date.now() + 60_000;
  while (!out.stdout.includes('Press Ctrl-C')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start failed:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const baseUrl = /running at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out.stdout)![1]!;
  return { child, baseUrl, output, stderr: () => out.stderr };
};

/** A start expected to be refused: its exit code and what it said on stderr. */
const refusedStart = async (opts: Parameters<typeof spawnStart>[0]) => {
  const { child, out } = spawnStart(opts);
  await exited(child);
  return { code: child.exitCode, stdout: out.stdout, stderr: out.stderr };
};

const descendants = (pid: number): number[] => {
  const kids = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((s) => Number(s.trim()))
    .filter(Boolean);
  return kids.flatMap((k) => [k, ...descendants(k)]);
};

const javaUnder = (pid: number) =>
  descendants(pid).filter((p) => {
    const ps = (field: string) => spawnSync('ps', ['-o', `${field}=`, '-p', String(p)], { encoding: 'utf8' }).stdout.trim();
    return ps('comm') === 'java' && ps('args').includes('DynamoDBLocal.jar');
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const gone = async (pid: number) => {
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
};

const processState = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];

const exited = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));

describe('npm start', () => {
  let token = '';

  it('on the very first start creates a demo workspace and prints a live and a test admin token that work, each in its own mode', async () => {
    const run = await start();
    const live = /live token:\s+(sk_live_[0-9A-Za-z]{48})/.exec(run.output())?.[1] ?? '';
    token = /test token:\s+(sk_test_[0-9A-Za-z]{48})/.exec(run.output())?.[1] ?? '';
    for (const [t, livemode] of [
      [live, true],
      [token, false],
    ] as const) {
      expect(t).not.toBe('');
      const res = await client(run.baseUrl, { token: t }).get('/api/v1/auth/workspaces');
      expect(res.status).toBe(200);
      expect(res.body.data.workspaces).toEqual([expect.objectContaining({ livemode })]);
      // Each mode holds the demo data: a default pipeline with leads across its stages.
      const api = client(run.baseUrl, { token: t, workspaceId: res.body.data.workspaces[0]._id });
      const pipelines = (await api.get('/api/v1/crm/pipelines')).body.data.pipelines;
      expect(pipelines.map((p: { name: string }) => p.name)).toEqual(['Sales']);
      const summary = (await api.get(`/api/v1/crm/pipelines/${pipelines[0]._id}/summary`)).body.data.summary;
      expect(summary.count).toBe(4);
      expect(summary.stages.filter((s: { count: number }) => s.count > 0).map((s: { name: string }) => s.name)).toEqual([
        'New',
        'Proposal',
        'Won',
        'Lost',
      ]);
    }
    run.child.kill('SIGINT');
    await exited(run.child);
    expect(run.child.exitCode).toBe(0);
  });

  // Each start costs seconds of both cores (Java, the emulators, the runtime), so a start that a later test can
  // use as it is serves both: the restart is the running instance a second start is refused beside, and the start
  // over a stale lock is the one stopped with Ctrl-C.
  let restarted: Awaited<ReturnType<typeof start>> | undefined;

  it('keeps workspaces and tokens across a restart and prints no new token', async () => {
    restarted = await start();
    expect(restarted.output()).not.toMatch(/sk_(live|test)_/);
    const res = await client(restarted.baseUrl, { token }).get('/api/v1/auth/workspaces');
    expect(res.status).toBe(200);
  });

  it('refuses a second start on the same data folder in one line, and the first keeps running', async () => {
    const first = restarted!;
    const second = await refusedStart({ dir: dataDir });
    expect(second).toMatchObject({ code: 1, stdout: '' });
    expect(second.stderr).toMatch(/^Parley is already running on .+ \(pid \d+\)[^\n]*\n$/);
    expect((await client(first.baseUrl, { token }).get('/api/v1/auth/workspaces')).status).toBe(200);
    first.child.kill('SIGTERM');
    await exited(first.child);
  });

  let overStaleLock: Awaited<ReturnType<typeof start>> | undefined;

  it('leaves no DynamoDB Local (Java) process behind when it is killed outright, and starts again over its stale lock', async () => {
    const run = await start();
    const java = javaUnder(run.child.pid!);
    expect(java).toHaveLength(1);
    run.child.kill('SIGKILL');
    await exited(run.child);
    expect(await gone(java[0]!)).toBe(true);

    overStaleLock = await start({ detached: true });
    expect((await client(overStaleLock.baseUrl, { token }).get('/api/v1/auth/workspaces')).status).toBe(200);
  });

  it('stops quietly on Ctrl-C: no poller errors, exit code 0, no Java left', async () => {
    const run = overStaleLock!;
    const java = javaUnder(run.child.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    process.kill(-run.child.pid!, 'SIGINT');
    await exited(run.child);
    expect(run.child.exitCode).toBe(0);
    expect(run.stderr()).toBe('');
    expect(await gone(java[0]!)).toBe(true);
  });

  it('killed outright mid-traffic and left an unreaped zombie, starts again at once on the same data with every acknowledged write', async () => {
    const run = await start({ unreaped: true });
    const parley = descendants(run.child.pid!)[0]!;
    const workspaceId = (await client(run.baseUrl, { token }).get('/api/v1/auth/workspaces')).body.data.workspaces[0]._id;
    const api = client(run.baseUrl, { token, workspaceId });
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const res = await api.post('/api/v1/tags', { name: `crash-${w}-${i}`, color: '#112233' }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(res.body.data.tag._id);
      }
    };
    const writers = [1, 2, 3].map(writer);
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));
    process.kill(parley, 'SIGKILL');
    killed = true;
    await Promise.all(writers);
    expect(processState(parley)).toBe('Z');

    const again = await start();
    const after = client(again.baseUrl, { token, workspaceId });
    for (const id of acknowledged) expect((await after.get(`/api/v1/tags/${id}`)).status, id).toBe(200);
    again.child.kill('SIGTERM');
    await exited(again.child);
  }, 180_000);

  it('refuses a busy port in one line, before starting DynamoDB Local', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const { port } = busy.address() as AddressInfo;
    const dir = tempDir();
    const res = await refusedStart({ dir, port });
    busy.close();
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toMatch(new RegExp(`^Port ${port} on 127\\.0\\.0\\.1 is already in use[^\\n]*\\n$`));
    expect(existsSync(join(dir, 'dynamodb'))).toBe(false);
  });
});
