import { newSigningKey, publicKeyOf } from '../domain/files/signed-url';
import { createSecureParameter, deleteParameter, readSecureParameter } from '../aws/ssm';

/**
 * The key download URLs are signed with: an RSA key pair made once, its private half a SecureString in the
 * parameter store, never anywhere else. The deployment's custom resource makes it and hands CloudFront the
 * public half; the local runtime makes it the same way at start. Making it again answers the same key.
 * `given` (a private key, PEM) is kept instead of a new one: the local runtime's tests share one per run.
 */
export const ensureDownloadKey = async (parameterName: string, given?: string): Promise<{ publicKey: string }> => {
  const existing = await readSecureParameter(parameterName);
  if (existing) return { publicKey: publicKeyOf(existing) };
  const { privateKey, publicKey } = given ? { privateKey: given, publicKey: publicKeyOf(given) } : newSigningKey();
  if (await createSecureParameter(parameterName, privateKey, 'Parley: the private key that signs file download URLs (CloudFront)'))
    return { publicKey };
  // Another run made it first: theirs is the key.
  return { publicKey: publicKeyOf((await readSecureParameter(parameterName))!) };
};

/** Removes the key with the deployment that made it. */
export const removeDownloadKey = (parameterName: string): Promise<void> => deleteParameter(parameterName);
