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

export const readRuntime = (): RuntimeInfo | undefined => {
  if (!existsSync(file())) return undefined;
  const info = JSON.parse(readFileSync(file(), 'utf8')) as RuntimeInfo;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined;
  }
};

export const clearRuntime = (): void => rmSync(file(), { force: true });
