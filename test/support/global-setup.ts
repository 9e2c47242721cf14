import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCliBundle } from './cli-bundle';
import { DOWNLOAD_KEY_ENV, createRunDownloadKey } from './download-key';
import { GATE_DIR_ENV, sumGateCounts } from './response-gate';
import { TLS_DIR_ENV, createTestCertificate } from './tls';
import { UNHANDLED_DIR_ENV, unhandledSummary } from './unhandled';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The run's scratch folder, its self-signed certificate (trusted by every test worker), its download signing key,
 * the response gate's tally and the run's 500s.
 */
export default async function setup() {
  // Every temporary folder of the run (CDK output, the site build, crash tests' data) goes under one folder that
  // goes when the run ends: a test process that is stopped rather than exited cannot remove its own.
  const scratch = mkdtempSync(join(tmpdir(), 'parley-test-run-'));
  process.env.TMPDIR = scratch;
  // Node reads NODE_EXTRA_CA_CERTS only at start-up, so it must be set before the test workers fork.
  const tls = await createTestCertificate();
  process.env[TLS_DIR_ENV] = tls.dir;
  process.env.NODE_EXTRA_CA_CERTS = tls.certFile;
  process.env[DOWNLOAD_KEY_ENV] = createRunDownloadKey(scratch);
  await buildCliBundle(scratch);
  const gate = mkdtempSync(join(tmpdir(), 'parley-response-gate-'));
  process.env[GATE_DIR_ENV] = gate;
  const unhandled = mkdtempSync(join(tmpdir(), 'parley-unhandled-'));
  process.env[UNHANDLED_DIR_ENV] = unhandled;
  return () => {
    process.stdout.write(unhandledSummary(unhandled));
    rmSync(unhandled, { recursive: true, force: true });
    const { checked, exempt } = sumGateCounts(gate);
    process.stdout.write(`response gate: ${checked} answers checked against their declared schemas (${exempt} files exempt)\n`);
    rmSync(gate, { recursive: true, force: true });
    rmSync(tls.dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  };
}
