import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeTrustBundle } from '../../../infra/local/trust-bundle';

const CERT = '-----BEGIN CERTIFICATE-----\nreceiver\n-----END CERTIFICATE-----\n';
const INHERITED = '-----BEGIN CERTIFICATE-----\ncompany proxy\n-----END CERTIFICATE-----';
let dir: string;
const bundle = () => readFileSync(join(dir, 'trusted.pem'), 'utf8');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-trust-'));
  writeFileSync(join(dir, 'cert.pem'), CERT);
});

describe("npm start's NODE_EXTRA_CA_CERTS bundle", () => {
  it('holds the inherited file, then the receiver certificate, each whole', () => {
    writeFileSync(join(dir, 'inherited.pem'), INHERITED);
    expect(writeTrustBundle(dir, join(dir, 'inherited.pem'))).toBeUndefined();
    expect(bundle()).toBe(`${INHERITED}\n${CERT}`);
  });

  it('holds the receiver certificate alone when nothing is inherited', () => {
    expect(writeTrustBundle(dir, undefined)).toBeUndefined();
    expect(bundle()).toBe(CERT);
  });

  it('does not nest itself when the inherited value is the bundle (a shell that exported what npm start set)', () => {
    writeTrustBundle(dir, undefined);
    expect(writeTrustBundle(dir, join(dir, 'trusted.pem'))).toBeUndefined();
    expect(writeTrustBundle(dir, join(dir, 'cert.pem'))).toBeUndefined();
    expect(bundle()).toBe(CERT);
  });

  it('warns about an inherited file that does not exist, and still trusts the receiver', () => {
    expect(writeTrustBundle(dir, join(dir, 'gone.pem'))).toContain(`${join(dir, 'gone.pem')}, which does not exist`);
    expect(bundle()).toBe(CERT);
  });
});
