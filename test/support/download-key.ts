import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newSigningKey } from '../../shared/domain/files/signed-url';

/** Where the run's download signing key lives; set by the global setup before workers fork. */
export const DOWNLOAD_KEY_ENV = 'PARLEY_TEST_DOWNLOAD_KEY_FILE';

/**
 * The private key every test stack of the run signs download URLs with: making an RSA 2048 key costs 0.1 to 0.3
 * CPU s, which each stack's start paid (docs/contributing/testing.md). Written owner-only into `dir`.
 */
export const createRunDownloadKey = (dir: string): string => {
  const file = join(dir, 'download-key.pem');
  writeFileSync(file, newSigningKey().privateKey, { mode: 0o600 });
  return file;
};

let key: string | undefined;

/** The run's key; undefined outside a vitest run (the stack then makes its own, as `npm start` does). */
export const runDownloadKey = (file = process.env[DOWNLOAD_KEY_ENV]): string | undefined => {
  if (file) key ??= readFileSync(file, 'utf8');
  return key;
};
