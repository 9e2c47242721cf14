import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive, ownIdentity, type ProcessIdentity } from './process-identity';
import { writeWhole } from './write-whole';

/** Where a running `npm start` tells the CLI how to reach it. */
export interface RuntimeInfo {
  pid: number;
  /** When that process started (/proc), so that a PID reused by another process is not taken for it. */
  startTime?: string;
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
  /** The data folder, absolute. */
  dataDir: string;
  /** Whether it delivers webhooks to loopback receivers (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowsLoopbackTargets: boolean;
  /** The certificate file it trusts beyond the system's (NODE_EXTRA_CA_CERTS), absolute. */
  extraCaCerts?: string;
}

export const dataDir = (): string => process.env.PARLEY_DATA_DIR ?? '.data';
const fileIn = (dir: string) => join(dir, 'runtime.json');

/**
 * Each running `npm start` of this user also leaves a pointer here, named by its PID, so that the CLI finds
 * an instance started with another PARLEY_DATA_DIR than its own.
 */
const registryDir = (): string => join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'parley', 'instances');
const pointerOf = (pid: number) => join(registryDir(), `${pid}.json`);

export const writeRuntime = (info: RuntimeInfo): void => {
  const text = JSON.stringify(info, null, 2);
  writeWhole(fileIn(info.dataDir), text);
  mkdirSync(registryDir(), { recursive: true });
  writeWhole(pointerOf(info.pid), text);
};

export const clearRuntime = (info: Pick<RuntimeInfo, 'pid' | 'dataDir'>): void => {
  rmSync(fileIn(info.dataDir), { force: true });
  rmSync(pointerOf(info.pid), { force: true });
};

const isRunning = (info: RuntimeInfo): boolean => isAlive({ pid: info.pid, startTime: info.startTime });

const readInfo = (file: string): RuntimeInfo | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
  } catch {
    return undefined;
  }
};

/** The instance running on this data folder (default: PARLEY_DATA_DIR or `.data`), if any. */
export const readRuntime = (dir = dataDir()): RuntimeInfo | undefined => {
  const info = readInfo(fileIn(dir));
  return info && isRunning(info) ? info : undefined;
};

/** Why no instance could be used, in words that name what to set. */
export class RuntimeNotFound extends Error {}

/** Running instances named in the registry; pointers whose process is gone are removed, and counted. */
const registered = (): { running: RuntimeInfo[]; stale: number } => {
  const dir = registryDir();
  const infos = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ file: join(dir, f), info: readInfo(join(dir, f)) }))
    : [];
  const running = infos.filter((e) => e.info && isRunning(e.info));
  const stale = infos.filter((e) => !running.includes(e));
  for (const e of stale) rmSync(e.file, { force: true });
  return { running: running.map((e) => e.info!), stale: stale.length };
};

/**
 * The running `npm start` the CLI acts on: the one on PARLEY_DATA_DIR when that is set; else the one on
 * `./.data`; else the only one this user runs. Otherwise says what was looked at and what to set.
 */
export const locateRuntime = (): RuntimeInfo => {
  const dir = resolve(dataDir());
  const file = fileIn(dir);
  const own = readInfo(file);
  if (own && isRunning(own)) return own;
  const here = own
    ? `${file} names pid ${own.pid}, which is no longer running (a stale file: that Parley stopped without cleaning up)`
    : `there is no ${file}`;
  if (process.env.PARLEY_DATA_DIR) {
    throw new RuntimeNotFound(
      `Parley is not running on PARLEY_DATA_DIR=${process.env.PARLEY_DATA_DIR}: ${here}. Start it with \`PARLEY_DATA_DIR=${process.env.PARLEY_DATA_DIR} npm start\`, or set PARLEY_DATA_DIR to the data folder of the Parley you started`,
    );
  }
  const { running, stale } = registered();
  if (running.length === 1) return running[0]!;
  if (running.length > 1) {
    throw new RuntimeNotFound(
      `Several Parleys are running; set PARLEY_DATA_DIR to the one to use: ${running.map((r) => `PARLEY_DATA_DIR=${r.dataDir} (pid ${r.pid}, ${r.baseUrl})`).join(', ')}`,
    );
  }
  const staleNote = stale
    ? `; removed ${stale} stale ${stale === 1 ? 'entry' : 'entries'} of stopped instances from ${registryDir()}`
    : ` and none is registered in ${registryDir()}`;
  throw new RuntimeNotFound(
    `Parley is not running: ${here}${staleNote}. Start it with \`npm start\`; if it runs with another data folder, set PARLEY_DATA_DIR to that folder (as given to \`npm start\`)`,
  );
};

/** A refusal to start, said in one line. */
export class StartRefused extends Error {}

/** The holder a lock file names: `{pid, startTime}`, or a bare PID as older versions wrote it. */
const holderOf = (text: string): ProcessIdentity | undefined => {
  try {
    const parsed = JSON.parse(text) as ProcessIdentity | number;
    return typeof parsed === 'number' ? { pid: parsed } : parsed;
  } catch {
    return undefined;
  }
};

/**
 * Makes this process the only `npm start` on `dir`: two DynamoDB Locals on the same files would corrupt
 * them. The lock file, created atomically, names our PID and start time; a lock whose process is gone (a
 * crash, a SIGKILL), is a zombie not yet reaped, or whose PID now belongs to another process, is stale and
 * taken over. Returns the release.
 */
export const lockDataDir = (dir: string): (() => void) => {
  const lock = join(dir, 'parley.lock');
  for (;;) {
    try {
      writeFileSync(lock, JSON.stringify(ownIdentity()), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(readFileSync(lock, 'utf8'));
    if (holder && isAlive(holder)) {
      throw new StartRefused(
        `Parley is already running on ${dir}/ (pid ${holder.pid}); stop it first, or use another PARLEY_DATA_DIR (if no such Parley runs, delete ${lock})`,
      );
    }
    rmSync(lock, { force: true });
  }
};
