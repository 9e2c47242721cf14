import { kms } from '../aws/kms';
import type { SecretBox } from './secret-box';

const PREFIX = 'kms:';

/** KMS Encrypt/Decrypt with the deployment's key; secrets are far below KMS's 4 KB plaintext limit. */
export const kmsBox = (keyId: string): SecretBox => ({
  seal: async (plaintext, context) => {
    const { sdk, client } = await kms();
    const { CiphertextBlob } = await client.send(
      new sdk.EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: context }),
    );
    return PREFIX + Buffer.from(CiphertextBlob!).toString('base64');
  },
  open: async (sealed, context) => {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a KMS ciphertext');
    const { sdk, client } = await kms();
    const { Plaintext } = await client.send(
      new sdk.DecryptCommand({
        KeyId: keyId,
        CiphertextBlob: Buffer.from(sealed.slice(PREFIX.length), 'base64'),
        EncryptionContext: context,
      }),
    );
    return Buffer.from(Plaintext!).toString('utf8');
  },
});
