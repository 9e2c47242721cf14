import { rmSync } from 'node:fs';
import { TLS_DIR_ENV, createTestCertificate } from './tls';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The run's self-signed certificate, trusted by every test worker. */
export default async function setup() {
  // Node reads NODE_EXTRA_CA_CERTS only at start-up, so it must be set before the test workers fork.
  const tls = await createTestCertificate();
  process.env[TLS_DIR_ENV] = tls.dir;
  process.env.NODE_EXTRA_CA_CERTS = tls.certFile;
  return () => rmSync(tls.dir, { recursive: true, force: true });
}
