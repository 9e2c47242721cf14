import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretBox } from './secret-box';

const PREFIX = 'local:v1:';

/** The 256-bit key in `file`, created (owner-only) on first use; a concurrent creator's key wins. */
const loadKey = (file: string): Buffer => {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 256-bit base64 key`);
  return key;
};

const aad = (context: Record<string, string>) => Buffer.from(JSON.stringify(Object.entries(context).sort()), 'utf8');

/** AES-256-GCM under a key file: the local runtime's stand-in for KMS. */
export const localBox = (file: string): SecretBox => {
  let key: Buffer | undefined;
  const keyOf = () => (key ??= loadKey(file));
  return {
    seal: async (plaintext, context) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), iv).setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open: async (sealed, context) => {
      if (!sealed.startsWith(PREFIX)) throw new Error('not a local ciphertext');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(), raw.subarray(0, 12)).setAAD(aad(context));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
};
