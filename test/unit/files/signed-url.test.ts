import { createSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignedUrl, newSigningKey, publicKeyOf, signUrl } from '../../../shared/domain/files/signed-url';

const key = newSigningKey();
const other = newSigningKey();
const trusted = new Map([['K1', key.publicKey]]);
const BASE = 'https://d111111abcdef8.cloudfront.net/6b026177880c821968ab7042~test/6b0ba3ac973f0557328f4555';
const NOW = 1_800_000_000;

describe('CloudFront signed URLs (canned policy)', () => {
  it('signs the URL and its expiry as CloudFront checks them: the same URL verifies until it expires', () => {
    const url = new URL(signUrl(BASE, NOW + 300, 'K1', key.privateKey));
    expect(url.searchParams.get('Expires')).toBe(String(NOW + 300));
    expect(url.searchParams.get('Key-Pair-Id')).toBe('K1');
    expect(url.searchParams.get('Signature')).toMatch(/^[A-Za-z0-9~_-]+$/);
    expect(checkSignedUrl(url, trusted, NOW)).toBeUndefined();
    expect(checkSignedUrl(url, trusted, NOW + 299)).toBeUndefined();
    expect(checkSignedUrl(url, trusted, NOW + 300)).toBe('expired');
  });

  it('is CloudFront’s documented signature: RSA-SHA1 over the canned policy, URL-safe base64', () => {
    const policy = JSON.stringify({ Statement: [{ Resource: BASE, Condition: { DateLessThan: { 'AWS:EpochTime': NOW } } }] });
    const expected = createSign('RSA-SHA1')
      .update(policy)
      .sign(key.privateKey, 'base64')
      .replace(/\+/g, '-')
      .replace(/=/g, '_')
      .replace(/\//g, '~');
    expect(new URL(signUrl(BASE, NOW, 'K1', key.privateKey)).searchParams.get('Signature')).toBe(expected);
  });

  it('refuses a changed expiry or path, another key’s signature, an unknown key pair and a URL without its parameters', () => {
    const url = new URL(signUrl(BASE, NOW + 300, 'K1', key.privateKey));
    const later = new URL(url);
    later.searchParams.set('Expires', String(NOW + 3600));
    expect(checkSignedUrl(later, trusted, NOW)).toBe('bad_signature');
    const elsewhere = new URL(url.toString().replace('6b0ba3ac973f0557328f4555', '6b0ba3ac973f0557328f4556'));
    expect(checkSignedUrl(elsewhere, trusted, NOW)).toBe('bad_signature');
    expect(checkSignedUrl(new URL(signUrl(BASE, NOW + 300, 'K1', other.privateKey)), trusted, NOW)).toBe('bad_signature');
    expect(checkSignedUrl(new URL(signUrl(BASE, NOW + 300, 'K2', key.privateKey)), trusted, NOW)).toBe('unknown_key');
    expect(checkSignedUrl(new URL(BASE), trusted, NOW)).toBe('missing_key');
  });

  it('derives the public half CloudFront is given from the private one', () => {
    expect(publicKeyOf(key.privateKey)).toBe(key.publicKey);
    expect(key.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
});
