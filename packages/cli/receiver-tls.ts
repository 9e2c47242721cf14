import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeInfo } from '../../infra/local/runtime-file';
import { TRUST_BUNDLE } from '../../infra/local/trust-bundle';
import { CliError } from './target';

/**
 * The certificate and key to serve with: the running Parley's receiver certificate (`<data>/receiver/cert.pem`
 * and `key.pem`), once it is sure that Parley trusts it: the file it was given as NODE_EXTRA_CA_CERTS (under
 * `npm start`, a bundle of the inherited one and this certificate) holds it. Delivering to 127.0.0.1 also
 * needs the local loopback allowance, which `npm start` turns on.
 */
export const receiverTls = (runtime: RuntimeInfo) => {
  const dir = join(runtime.dataDir, 'receiver');
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  const restart = `restart it with \`npm start\`, which sets both (or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=${join(dir, TRUST_BUNDLE)})`;
  if (!runtime.allowsLoopbackTargets)
    throw new CliError(
      `The running Parley (pid ${runtime.pid}) refuses loopback webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS is not true): ${restart}`,
    );
  if (!existsSync(certFile) || !existsSync(keyFile))
    throw new CliError(`There is no receiver certificate in ${dir} (cert.pem and key.pem): ${restart}`);
  const cert = readFileSync(certFile, 'utf8');
  const trusted = runtime.extraCaCerts && existsSync(runtime.extraCaCerts) ? readFileSync(runtime.extraCaCerts, 'utf8') : '';
  if (!trusted.includes(cert.trim())) {
    const given = runtime.extraCaCerts
      ? `trusts ${runtime.extraCaCerts} (NODE_EXTRA_CA_CERTS), which does not hold ${certFile}`
      : 'trusts no local certificate (NODE_EXTRA_CA_CERTS is unset)';
    throw new CliError(`The running Parley (pid ${runtime.pid}) ${given}, so it cannot verify this receiver: ${restart}`);
  }
  return { cert, key: readFileSync(keyFile) };
};
