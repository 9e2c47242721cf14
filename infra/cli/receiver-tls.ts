import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RuntimeInfo } from '../local/runtime-file';
import { CliError } from './target';

/**
 * The certificate and key to serve with: those of the certificate the running Parley trusts
 * (NODE_EXTRA_CA_CERTS, which `npm start` points at `<data>/receiver/cert.pem`), with `key.pem` beside it.
 * Delivering to 127.0.0.1 also needs the local loopback allowance, which `npm start` turns on.
 */
export const receiverTls = (runtime: RuntimeInfo) => {
  const restart = `restart it with \`npm start\` (which sets both), or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=${join(runtime.dataDir, 'receiver', 'cert.pem')}`;
  if (!runtime.allowsLoopbackTargets)
    throw new CliError(
      `The running Parley (pid ${runtime.pid}) refuses loopback webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS is not true): ${restart}`,
    );
  const key = runtime.extraCaCerts && join(dirname(runtime.extraCaCerts), 'key.pem');
  if (!runtime.extraCaCerts || !key || !existsSync(runtime.extraCaCerts) || !existsSync(key)) {
    const trusted = runtime.extraCaCerts
      ? `trusts ${runtime.extraCaCerts}, which has no key.pem beside it`
      : 'trusts no local certificate (NODE_EXTRA_CA_CERTS is unset)';
    throw new CliError(`The running Parley (pid ${runtime.pid}) ${trusted}, so it cannot verify a local HTTPS receiver: ${restart}`);
  }
  return { cert: readFileSync(runtime.extraCaCerts), key: readFileSync(key) };
};
