import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

/**
 * A self-signed certificate for 127.0.0.1/localhost (`cert.pem`, `key.pem` in `dir`), made once and
 * reused: Node trusts it through NODE_EXTRA_CA_CERTS, so TLS is verified for real.
 */
export const localhostCertificate = async (dir: string): Promise<CertificateFiles> => {
  const files = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return files;
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(files.keyFile, pems.private, { mode: 0o600 });
  writeFileSync(files.certFile, pems.cert);
  return files;
};
