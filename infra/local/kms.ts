import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { config } from '../../shared/config';
import type { Wiring } from '../../functions/wiring/types';

/**
 * The local runtime's KMS: answers the Encrypt and Decrypt calls of the code's own KMS client in process,
 * with AES-256-GCM under a key derived per KMS key from one key file (`LOCAL_SECRETS_KEY_FILE`). It sits
 * behind the IAM guard, so a call reaches it only with the function's key grant. Only this runtime loads it:
 * deployed functions call KMS itself and never read a key file.
 */
const localKeyId = (name: string) => `arn:aws:kms:us-east-1:000000000000:alias/parley-${name}`;

/** The 256-bit key in `file`, created (owner-only) on first use; a concurrent creator's key wins. */
const loadFileKey = (file: string): Buffer => {
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

let fileKey: Buffer | undefined;
const keyFor = (keyId: string) => {
  fileKey ??= loadFileKey(config().LOCAL_SECRETS_KEY_FILE);
  return Buffer.from(hkdfSync('sha256', fileKey, '', keyId, 32));
};

const aad = (context: Record<string, string> | undefined) => Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort()), 'utf8');

const kmsError = (name: string, message: string) =>
  Object.assign(new Error(message), { name, $fault: 'client', $service: 'kms', $metadata: { httpStatusCode: 400 } });

type Input = { KeyId?: string; Plaintext?: Uint8Array; CiphertextBlob?: Uint8Array; EncryptionContext?: Record<string, string> };

/** A blob names its key, as KMS's does: [key id length][key id][iv][tag][ciphertext]. */
const encrypt = (keys: ReadonlySet<string>, input: Input) => {
  const keyId = input.KeyId ?? '';
  if (!keys.has(keyId)) throw kmsError('NotFoundException', `Key '${keyId}' does not exist`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(keyId), iv).setAAD(aad(input.EncryptionContext));
  const body = Buffer.concat([cipher.update(input.Plaintext ?? new Uint8Array()), cipher.final()]);
  const id = Buffer.from(keyId, 'utf8');
  return { KeyId: keyId, CiphertextBlob: new Uint8Array(Buffer.concat([Buffer.from([id.length]), id, iv, cipher.getAuthTag(), body])) };
};

const decrypt = (input: Input) => {
  const blob = Buffer.from(input.CiphertextBlob ?? new Uint8Array());
  const idLength = blob[0] ?? 0;
  const keyId = blob.subarray(1, 1 + idLength).toString('utf8');
  if (input.KeyId !== undefined && input.KeyId !== keyId)
    throw kmsError('IncorrectKeyException', 'The key ID in the request does not identify a KMS key that can perform this operation');
  const rest = blob.subarray(1 + idLength);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(keyId), rest.subarray(0, 12)).setAAD(aad(input.EncryptionContext));
    decipher.setAuthTag(rest.subarray(12, 28));
    return { KeyId: keyId, Plaintext: new Uint8Array(Buffer.concat([decipher.update(rest.subarray(28)), decipher.final()])) };
  } catch {
    throw kmsError('InvalidCiphertextException', '');
  }
};

const kmsPlugin = (keys: ReadonlySet<string>): Pluggable<any, any> => ({
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (context.clientName !== 'KMSClient') return next(args);
        const input = args.input as Input;
        const output =
          context.commandName === 'EncryptCommand'
            ? encrypt(keys, input)
            : context.commandName === 'DecryptCommand'
              ? decrypt(input)
              : undefined;
        if (!output)
          throw kmsError(
            'UnsupportedOperationException',
            `The local KMS answers Encrypt and Decrypt only, not ${String(context.commandName)}`,
          );
        return { output: { ...output, $metadata: { httpStatusCode: 200 } }, response: { statusCode: 200, headers: {} } };
      },
      // After the IAM guard (build, high), before anything is signed or sent.
      { step: 'build', name: 'parleyLocalKms', priority: 'low' },
    );
  },
});

let installed = false;

/** Points every wiring key's id variable at a local key and answers KMS calls in process (idempotent). */
export const installLocalKms = (wiring: Wiring): void => {
  if (installed) return;
  installed = true;
  for (const key of wiring.keys) process.env[key.idEnv] = localKeyId(key.name);
  registerClientPlugin(kmsPlugin(new Set(wiring.keys.map((k) => localKeyId(k.name)))));
};
