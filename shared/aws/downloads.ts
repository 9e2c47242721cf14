import { createPrivateKey, type KeyObject } from 'node:crypto';
import { config } from '../config';
import { signUrl } from '../domain/files/signed-url';
import { containerOf } from './plugins';
import { readSecureParameter } from './ssm';

/**
 * Download URLs of the files bucket: CloudFront signed URLs under the downloads distribution (on AWS, CloudFront
 * in front of the private bucket; locally, its stand-in), signed with the private key kept in the parameter
 * store. The key is read once per container.
 */
const keys = new Map<string, Promise<KeyObject>>();

const signingKey = (parameter: string): Promise<KeyObject> => {
  const id = `${containerOf()} ${parameter}`;
  let key = keys.get(id);
  if (!key) {
    key = readSecureParameter(parameter).then((pem) => {
      if (!pem) throw new Error(`the download signing key ${parameter} is not in the parameter store`);
      return createPrivateKey(pem);
    });
    key.catch(() => keys.delete(id));
    keys.set(id, key);
  }
  return key;
};

/** A URL that downloads the object at `key` until `expiresAt` (to the second), and is refused after. */
export const signedDownloadUrl = async (key: string, expiresAt: Date): Promise<string> => {
  const { FILES_DOWNLOAD_URL: base, FILES_DOWNLOAD_KEY_PAIR_ID: keyPairId, FILES_DOWNLOAD_KEY_PARAMETER: parameter } = config();
  if (!base || !keyPairId || !parameter)
    throw new Error(
      'FILES_DOWNLOAD_URL, FILES_DOWNLOAD_KEY_PAIR_ID and FILES_DOWNLOAD_KEY_PARAMETER are set on the functions granted downloads',
    );
  const url = `${base.replace(/\/$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
  return signUrl(url, Math.floor(expiresAt.getTime() / 1000), keyPairId, await signingKey(parameter));
};
