import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { useLogSink, type Threshold } from '../../shared/log';
import { localLogSink } from './log-file';
import { isPortFree } from './ports';
import { ownIdentity } from './process-identity';
import { clearRuntime, dataDir, lockDataDir, StartRefused, writeRuntime } from './runtime-file';
import { seedOnFirstStart } from './seed';
import { startStack } from './stack';

const positive = (n: number) => (n > 0 ? n : undefined);
/** `PARLEY_PRELOAD_FUNCTIONS`: every handler before answering (default), `workers` only theirs, `false` none. */
const preloadOf = (value: string | undefined) => (value === 'false' ? false : value === 'workers' ? ('workers' as const) : true);

const run = async (dir: string, port: number, unlock: () => void) => {
  if (!(await isPortFree(port))) {
    throw new StartRefused(`Port ${port} on 127.0.0.1 is already in use; stop what uses it, or start with PORT=<another port>`);
  }
  const logs = localLogSink({ dataDir: dir, level: (process.env.LOG_LEVEL ?? 'info') as Threshold, out: process.stdout });
  useLogSink(logs);
  const stack = await startStack({
    dataDir: dir,
    port,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    sqsEndpoint: process.env.SQS_ENDPOINT || undefined,
    tableName: process.env.TABLE_NAME || undefined,
    queuePrefix: process.env.PARLEY_QUEUE_PREFIX || undefined,
    scheduleSeconds: positive(Number(process.env.PARLEY_SCHEDULE_SECONDS)),
    preloadFunctions: preloadOf(process.env.PARLEY_PRELOAD_FUNCTIONS),
  });
  const runtime = {
    ...ownIdentity(),
    baseUrl: stack.baseUrl,
    dynamoEndpoint: stack.dynamoEndpoint,
    tableName: stack.tableName,
    dataDir: resolve(dir),
    allowsLoopbackTargets: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS ? resolve(process.env.NODE_EXTRA_CA_CERTS) : undefined,
  };
  writeRuntime(runtime);

  const seeded = await seedOnFirstStart();
  const lines = [`Parley is running at ${stack.baseUrl}/api/v1`, `Data: ${dir}/ (persists across restarts)`];
  if (seeded) {
    lines.push(
      '',
      'First start: created a demo workspace and an admin token for each mode. The tokens are shown only this once:',
      `  workspace id: ${seeded.workspaceId}`,
      `  live token:   ${seeded.tokens.live}`,
      `  test token:   ${seeded.tokens.test}   (test mode: a sandbox whose data and events never mix with live)`,
      '',
      `  curl -H "Authorization: Bearer ${seeded.tokens.test}" ${stack.baseUrl}/api/v1/auth/workspaces`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\nPress Ctrl-C to stop.\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Parley…\n`);
    await stack.stop();
    await logs.close();
    clearRuntime(runtime);
    unlock();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
};

/** `npm start`: the whole of Parley on this machine, with data kept under `.data/`. One per data folder. */
const main = async () => {
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dir);
  try {
    await run(dir, Number(process.env.PORT ?? 3000), unlock);
  } catch (error) {
    unlock();
    throw error;
  }
};

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(error instanceof StartRefused ? `${message}\n` : `Parley failed to start: ${message}\n`);
  process.exit(1);
});
