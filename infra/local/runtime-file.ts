import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a running `npm start` tells the CLI how to reach it. */
export interface RuntimeInfo {
  pid: number;
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
}

export const dataDir = (): string => process.env.PARLEY_DATA_DIR ?? '.data';
const file = () => join(dataDir(), 'runtime.json');

export const writeRuntime = (info: RuntimeInfo): void => writeFileSync(file(), JSON.stringify(info, null, 2));

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export const readRuntime = (): RuntimeInfo | undefined => {
  if (!existsSync(file())) return undefined;
  const info = JSON.parse(readFileSync(file(), 'utf8')) as RuntimeInfo;
  return isRunning(info.pid) ? info : undefined;
};

export const clearRuntime = (): void => rmSync(file(), { force: true });

/** A refusal to start, said in one line. */
export class StartRefused extends Error {}

/**
 * Makes this process the only `npm start` on `dir`: two DynamoDB Locals on the same files would corrupt
 * them. The lock file, created atomically, holds our PID; a lock whose process is gone (a crash, a
 * SIGKILL) is stale and taken over. Returns the release.
 */
export const lockDataDir = (dir: string): (() => void) => {
  const lock = join(dir, 'parley.lock');
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8'));
    if (holder && isRunning(holder)) {
      throw new StartRefused(`Parley is already running on ${dir}/ (pid ${holder}); stop it first, or use another PARLEY_DATA_DIR (if no such Parley runs, delete ${lock})`);
    }
    rmSync(lock, { force: true });
  }
};
