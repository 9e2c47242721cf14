import { parleyArgv } from '../support/cli-bundle';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCatalog } from '../../shared/events/catalog';
import { createParleyClient } from '../../packages/client/src/index';
import { openSession } from '../../packages/cli/session';
import { liveOnly, recipes, untriggerable } from '../../packages/cli/trigger';

const root = resolve(import.meta.dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'parley-cli-listen-'));
const dataDir = join(home, 'data');
const stateHome = join(home, 'state');

/** What a machine behind a company proxy, or a shell profile, commonly exports: Node must trust it and the receiver. */
const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * The user's environment: NODE_EXTRA_CA_CERTS already set (to the system bundle) instead of the test
 * certificate, no loopback allowance, no table, and no PARLEY_DATA_DIR (only `npm start` gets that); the
 * per-user state folder is the test's own.
 */
const userEnv = (extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: stateHome, NODE_EXTRA_CA_CERTS: SYSTEM_CA_BUNDLE, ...extra };
  for (const name of [
    'NODE_EXTRA_CA_CERTS',
    'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    'DYNAMODB_ENDPOINT',
    'SQS_ENDPOINT',
    'TABLE_NAME',
    'PARLEY_DATA_DIR',
    'PORT',
  ]) {
    if (!(name in extra) && name !== 'NODE_EXTRA_CA_CERTS') delete env[name];
  }
  return env;
};

const parley = (args: string[], extra: Record<string, string> = {}) => {
  const res = spawnSync(process.execPath, parleyArgv(...args), {
    cwd: root,
    encoding: 'utf8',
    env: userEnv(extra),
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
};

/** Lines a child prints, and a wait for one that matches. */
const watch = (child: ChildProcess) => {
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const until = (stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const started = Date.now();
      const check = () => {
        const found = pattern.exec(out[stream]);
        if (found) return done(found);
        if (child.exitCode !== null || Date.now() - started > timeoutMs)
          return fail(new Error(`no ${pattern} in ${stream}: ${JSON.stringify(out)}`));
        setTimeout(check, 100);
      };
      check();
    });
  return { out, until };
};

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once('exit', (code) => done(code))));

let parleyProcess: ChildProcess;
let baseUrl: string;
let testToken: string;
let workspaceId: string;

beforeAll(async () => {
  // A real `npm start` in its own process group (npm, sh, tsx and node), on a data folder of its own, with
  // its timers every 5 s instead of every minute.
  parleyProcess = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: userEnv({ PARLEY_DATA_DIR: dataDir, PORT: '0', PARLEY_SCHEDULE_SECONDS: '5' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const { until } = watch(parleyProcess);
  baseUrl = (await until('stdout', /Parley is running at (\S+)\/api\/v1/, 120_000))[1]!;
  testToken = (await until('stdout', /test token:\s+(sk_test_\w+)/))[1]!;
  workspaceId = (await until('stdout', /workspace id:\s+([0-9a-f]{24})/))[1]!;
}, 150_000);

/** npm may exit before the node process under it has stopped DynamoDB Local, which still writes to the data folder. */
const groupGone = async (pgid: number) => {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

afterAll(async () => {
  if (parleyProcess?.exitCode === null) {
    process.kill(-parleyProcess.pid!, 'SIGTERM');
    await exited(parleyProcess);
  }
  if (parleyProcess?.pid) await groupGone(parleyProcess.pid);
  rmSync(home, { recursive: true, force: true });
}, 60_000);

describe('finding the running Parley', () => {
  it('finds an instance started with PARLEY_DATA_DIR when the CLI runs without it', () => {
    const res = parley(['workspace', 'list', '--json']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).workspaces).toHaveLength(1);
  });

  it('names PARLEY_DATA_DIR and the file it read when the folder it names runs nothing, stale file or none', () => {
    const stale = join(home, 'stale');
    mkdirSync(stale);
    writeFileSync(join(stale, 'runtime.json'), JSON.stringify({ pid: 2 ** 22 + 1, baseUrl: 'http://127.0.0.1:1', dataDir: stale }));
    const res = parley(['workspace', 'list'], { PARLEY_DATA_DIR: stale });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `Parley is not running on PARLEY_DATA_DIR=${stale}: ${join(stale, 'runtime.json')} names pid ${2 ** 22 + 1}, which is no longer running`,
    );

    const empty = join(home, 'empty');
    expect(parley(['workspace', 'list'], { PARLEY_DATA_DIR: empty }).stderr).toContain(`there is no ${join(empty, 'runtime.json')}`);
  });

  it('says what it looked at, removes stale registry entries and names PARLEY_DATA_DIR when nothing runs', () => {
    const otherState = join(home, 'other-state');
    const registry = join(otherState, 'parley', 'instances');
    mkdirSync(registry, { recursive: true });
    writeFileSync(join(registry, '4194305.json'), JSON.stringify({ pid: 2 ** 22 + 1, dataDir: '/nowhere' }));
    const res = parley(['workspace', 'list'], { XDG_STATE_HOME: otherState });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`removed 1 stale entry of stopped instances from ${registry}`);
    expect(res.stderr).toContain('set PARLEY_DATA_DIR to that folder');
    expect(res.stderr).toContain(join(root, '.data', 'runtime.json'));
    expect(parley(['workspace', 'list'], { XDG_STATE_HOME: otherState }).stderr).toContain(`none is registered in ${registry}`);
  });
});

describe('parley trigger', () => {
  it('has a recipe for every catalog type but those it names, each with its reason, and nothing else', () => {
    const catalog = eventCatalog.map((e) => e.type);
    const excluded = Object.keys(untriggerable);
    expect(Object.keys(recipes).filter((t) => excluded.includes(t))).toEqual([]);
    expect([...Object.keys(recipes), ...excluded].sort()).toEqual([...catalog].sort());
    for (const reason of Object.values(untriggerable)) expect(reason.length).toBeGreaterThan(20);
    for (const planned of eventCatalog.filter((e) => e.status === 'planned')) expect(untriggerable[planned.type]).toMatch(/^planned/);
  });

  it('refuses a type it cannot trigger with the reason, and an unknown one', () => {
    expect(parley(['trigger', 'scheduling.booking.reminder'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('cannot be triggered: sent by a timer'),
    });
    expect(parley(['trigger', 'inbox.nothing.happened'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown event type: inbox.nothing.happened'),
    });
    expect(parley(['trigger', 'auth.workspace.updated'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('is emitted in live mode only'),
    });
  });
});

/** The CLI's own tokens still active, and the loopback subscriptions left, as the demo workspace sees them. */
const leftBehind = async () => {
  const api = createParleyClient({ baseUrl, token: testToken, workspaceId });
  const tokens = (await api.get('/auth/tokens')).data.tokens.filter((t) => t.name === 'parley listen' && t.status === 'active');
  const subscriptions = (await api.get('/integrations/webhooks')).data.subscriptions.filter((s) => s.url.startsWith('https://127.0.0.1:'));
  return { tokens: tokens.length, subscriptions: subscriptions.length };
};

describe('a listen that fails', () => {
  it('started in the inherited NODE_EXTRA_CA_CERTS, `npm start` trusts both it and the receiver certificate', () => {
    const bundle = readFileSync(join(dataDir, 'receiver', 'trusted.pem'), 'utf8');
    expect(bundle.startsWith(readFileSync(SYSTEM_CA_BUNDLE, 'utf8'))).toBe(true);
    expect(bundle.endsWith(readFileSync(join(dataDir, 'receiver', 'cert.pem'), 'utf8'))).toBe(true);
  });

  it('revokes its token when it cannot serve (no receiver key), and says what to do', async () => {
    const key = join(dataDir, 'receiver', 'key.pem');
    renameSync(key, `${key}.away`);
    try {
      const res = parley(['listen']);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`There is no receiver certificate in ${join(dataDir, 'receiver')}`);
    } finally {
      renameSync(`${key}.away`, key);
    }
    expect(await leftBehind()).toEqual({ tokens: 0, subscriptions: 0 });
  });

  it('revokes its token when its subscription is refused', async () => {
    const res = parley(['listen', '--events', 'no.such.event']);
    expect(res.code).toBe(1);
    expect(await leftBehind()).toEqual({ tokens: 0, subscriptions: 0 });
  });

  it('deletes its subscription and revokes its token when its terminal closes (SIGHUP)', async () => {
    const child = spawn(process.execPath, parleyArgv('listen'), {
      cwd: root,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = watch(child);
    await out.until('stderr', /^Ready: listening on/m);
    expect(await leftBehind()).toEqual({ tokens: 1, subscriptions: 1 });
    process.kill(child.pid!, 'SIGHUP');
    expect(await exited(child)).toBe(0);
    expect(out.out.stderr).toMatch(/Deleted subscription [0-9a-f]{24}\./);
    expect(await leftBehind()).toEqual({ tokens: 0, subscriptions: 0 });
  });
});

interface Forwarded {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('parley listen', () => {
  const forwarded: Forwarded[] = [];
  const app = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      forwarded.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  let listener: ChildProcess;
  let lines: ReturnType<typeof watch>;
  let jsonListener: ChildProcess;
  let jsonLines: ReturnType<typeof watch>;

  beforeAll(async () => {
    // The README's order: a workspace of one's own first, then listen and trigger without --workspace.
    expect(parley(['workspace', 'create', '--name', 'Acme Support', '--owner-email', 'you@example.com'])).toMatchObject({ code: 0 });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const appUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/hooks`;
    listener = spawn(process.execPath, parleyArgv('listen', '--forward-to', appUrl), {
      cwd: root,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    jsonListener = spawn(process.execPath, parleyArgv('listen', '--events', 'inbox.*,crm.lead.*', '--json'), {
      cwd: root,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    lines = watch(listener);
    jsonLines = watch(jsonListener);
    await Promise.all([lines.until('stderr', /^Ready: listening on/m), jsonLines.until('stderr', /^Ready: listening on/m)]);
  }, 90_000);

  it('chooses the demo workspace, of the test token the first start printed, and says so', () => {
    expect(lines.out.stderr).toContain(
      `Using workspace ${workspaceId}, "Demo workspace", the demo workspace of the test token printed by the first npm start (choose another with --workspace <id>).`,
    );
    expect(lines.out.stderr).toContain(`in workspace ${workspaceId} (test mode)`);
  });

  afterAll(async () => {
    for (const child of [listener, jsonListener]) if (child?.exitCode === null) child.kill('SIGKILL');
    await new Promise<void>((r) => app.close(() => r()));
  });

  it('prints each verified event that `parley trigger` causes, forwards it, and prints full payloads with --json', async () => {
    for (const type of ['inbox.conversation.created', 'crm.lead.won', 'customer.contact.merged', 'workflow.execution.failed']) {
      const res = parley(['trigger', type]);
      expect(res).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(new RegExp(`^Triggered ${type.replace(/\./g, '\\.')} in workspace [0-9a-f]{24} \\(test mode\\)`)),
      });
      // A loaded machine delays the queues.
      await lines.until('stdout', new RegExp(`^\\S+  ${type.replace(/\./g, '\\.')}  [0-9a-f]{24}  `, 'm'), 240_000);
    }
    // What led to them, delivered in any order.
    await lines.until('stdout', / {2}crm\.lead\.stage_changed {2}[0-9a-f]{24} {2}lead [0-9a-f]{24}\n/);
    await lines.until('stdout', / {2}workflow\.step\.failed {2}[0-9a-f]{24} {2}execution [0-9a-f]{24}\n/);

    await jsonLines.until('stdout', /"eventType":"crm\.lead\.won"/);
    const events = jsonLines.out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining(['inbox.conversation.created', 'crm.lead.created', 'crm.lead.won']),
    );
    expect(events.every((e) => /^(inbox|crm\.lead)\./.test(e.eventType))).toBe(true);
    expect(events.find((e) => e.eventType === 'crm.lead.won')).toMatchObject({
      livemode: false,
      apiVersion: 'v1',
      data: { lead: { status: 'won' } },
    });

    const created = forwarded.find((f) => JSON.parse(f.body).eventType === 'inbox.conversation.created');
    expect(created?.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': JSON.parse(created!.body).eventId });
    const secret = (await lines.until('stderr', /signing secret, to verify forwarded events: (whsec_\S+)/))[1]!;
    expect(new Webhook(secret).verify(created!.body, created!.headers as Record<string, string>)).toMatchObject({
      eventType: 'inbox.conversation.created',
    });
    expect(lines.out.stderr).toMatch(/forwarded [0-9a-f]{24} to http:\/\/127\.0\.0\.1:\d+\/hooks: 204/);
  }, 600_000);

  it('causes every triggerable type', async () => {
    // As `parley trigger` runs them, in a few at a time: each with a token of its own, as rate limits are per token.
    process.env.PARLEY_DATA_DIR = dataDir;
    const types = Object.keys(recipes).filter((type) => !liveOnly.has(type));
    for (let i = 0; i < types.length; i += 5) {
      await Promise.all(
        types.slice(i, i + 5).map(async (type) => {
          const session = await openSession({}, ['admin:all'], `trigger ${type}`);
          await recipes[type]!(session.api, session.runtime).finally(() => session.close());
        }),
      );
    }
    const missing = () => types.filter((type) => !lines.out.stdout.includes(`  ${type}  `));
    // The task timer's event comes within its 5 s; a loaded machine delays the queues.
    for (let waited = 0; missing().length > 0 && waited < 180_000; waited += 500) await new Promise((r) => setTimeout(r, 500));
    expect(missing(), lines.out.stdout).toEqual([]);
  }, 420_000);

  it('refuses a delivery whose signature does not verify, and prints nothing for it', async () => {
    const url = (await lines.until('stderr', /listening on (\S+)/))[1]!;
    const status = await new Promise<number>((done, fail) => {
      const req = request(
        url,
        {
          method: 'POST',
          ca: readFileSync(join(dataDir, 'receiver', 'cert.pem')),
          headers: { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        },
        (res) => {
          res.resume();
          done(res.statusCode!);
        },
      );
      req.on('error', fail);
      req.end('{"eventType":"inbox.conversation.created"}');
    });
    expect(status).toBe(400);
    await lines.until('stderr', /Refused a delivery whose signature does not verify/);
  });

  it('deletes its subscription and revokes its token when stopped', async () => {
    const api = createParleyClient({ baseUrl, token: testToken, workspaceId });
    const url = (await lines.until('stderr', /listening on (\S+)/))[1]!;
    const ours = async () => (await api.get('/integrations/webhooks')).data.subscriptions.filter((s) => s.url === url);
    const revoked = async () =>
      (await api.get('/auth/tokens')).data.tokens.filter((t) => t.name === 'parley listen' && t.status === 'revoked').length;
    const revokedBefore = await revoked();
    expect(await ours()).toHaveLength(1);
    listener.kill('SIGTERM');
    expect(await exited(listener)).toBe(0);
    expect(lines.out.stderr).toMatch(/Deleted subscription [0-9a-f]{24}\./);
    expect(await ours()).toEqual([]);
    const tokens = (await api.get('/auth/tokens')).data.tokens.filter((t) => t.name === 'parley listen');
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.some((t) => t.status === 'active')).toBe(true); // the --json listener's, still running
    expect(await revoked()).toBe(revokedBefore + 1);
  });
});
