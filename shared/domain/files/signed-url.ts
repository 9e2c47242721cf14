import { createPublicKey, createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * CloudFront signed URLs with a canned policy: the URL and its expiry signed (RSA-SHA1, as CloudFront requires)
 * with a key whose public half the distribution's key group trusts. Pure: the keys and the clock are arguments.
 */

/** CloudFront's URL-safe base64: `+` → `-`, `=` → `_`, `/` → `~`. */
const urlSafe = (base64: string) => base64.replace(/\+/g, '-').replace(/=/g, '_').replace(/\//g, '~');
const fromUrlSafe = (s: string) => s.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/');

/** The canned policy CloudFront rebuilds from the request: the URL as requested (without the signing parameters) and the expiry. */
const cannedPolicy = (url: string, expiresEpoch: number) =>
  JSON.stringify({ Statement: [{ Resource: url, Condition: { DateLessThan: { 'AWS:EpochTime': expiresEpoch } } }] });

/** `url` signed to be fetched until `expiresEpoch` (whole seconds) with the key CloudFront knows as `keyPairId`. */
export const signUrl = (url: string, expiresEpoch: number, keyPairId: string, privateKey: KeyObject | string): string => {
  const signature = createSign('RSA-SHA1').update(cannedPolicy(url, expiresEpoch)).sign(privateKey, 'base64');
  const joiner = url.includes('?') ? '&' : '?';
  return `${url}${joiner}Expires=${expiresEpoch}&Signature=${urlSafe(signature)}&Key-Pair-Id=${keyPairId}`;
};

/** Why CloudFront refuses a signed URL, or undefined when it serves it. */
export type SignedUrlRefusal = 'missing_key' | 'unknown_key' | 'bad_signature' | 'expired';

/** CloudFront's check of a canned-policy URL: its signing parameters, the key, the signature over the rest of the URL, the expiry. */
export const checkSignedUrl = (
  url: URL,
  trusted: ReadonlyMap<string, KeyObject | string>,
  nowEpoch: number,
): SignedUrlRefusal | undefined => {
  const expires = url.searchParams.get('Expires');
  const signature = url.searchParams.get('Signature');
  const keyPairId = url.searchParams.get('Key-Pair-Id');
  if (!expires || !signature || !keyPairId) return 'missing_key';
  const key = trusted.get(keyPairId);
  if (!key) return 'unknown_key';
  const unsigned = new URL(url);
  for (const name of ['Expires', 'Signature', 'Key-Pair-Id']) unsigned.searchParams.delete(name);
  const resource = `${unsigned.origin}${unsigned.pathname}${unsigned.search}`;
  const verified = createVerify('RSA-SHA1')
    .update(cannedPolicy(resource, Number(expires)))
    .verify(key, Buffer.from(fromUrlSafe(signature), 'base64'));
  if (!verified || !/^\d+$/.test(expires)) return 'bad_signature';
  return Number(expires) <= nowEpoch ? 'expired' : undefined;
};

/** A new RSA 2048 key pair for signing downloads (CloudFront's key groups take RSA 2048 public keys), both halves as PEM. */
export const newSigningKey = (): { privateKey: string; publicKey: string } =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

/** The public half of a private key, as PEM (`-----BEGIN PUBLIC KEY-----`, as CloudFront takes it). */
export const publicKeyOf = (privateKeyPem: string): string =>
  createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
