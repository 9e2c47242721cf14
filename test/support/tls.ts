import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localhostCertificate } from '../../infra/local/certificate';

/** Where the test run's certificate lives; set by the global setup before workers fork. */
export const TLS_DIR_ENV = 'PARLEY_TEST_TLS_DIR';

/**
 * A self-signed certificate for 127.0.0.1/localhost that the run trusts through NODE_EXTRA_CA_CERTS,
 * so HTTPS receivers are verified for real (no `rejectUnauthorized: false` anywhere).
 */
export const createTestCertificate = async (): Promise<{ dir: string; certFile: string }> => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-tls-'));
  return { dir, certFile: (await localhostCertificate(dir)).certFile };
};

export const testTls = (dir = process.env[TLS_DIR_ENV]) => {
  if (!dir) throw new Error(`${TLS_DIR_ENV} is not set: the global setup creates the test certificate`);
  return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
};
