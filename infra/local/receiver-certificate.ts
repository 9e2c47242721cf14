import { join } from 'node:path';
import { localhostCertificate } from './certificate';
import { dataDir } from './runtime-file';
import { writeTrustBundle } from './trust-bundle';

// `npm start`'s pre-step: the certificate local webhook receivers serve with (`npx parley listen`, `npm run
// receiver`), and the bundle `npm start` then gives Node as NODE_EXTRA_CA_CERTS: whatever the environment
// already trusts through it, plus that certificate. Made before Node starts, as Node reads it only then.
const dir = join(dataDir(), 'receiver');
await localhostCertificate(dir);
const warning = writeTrustBundle(dir, process.env.NODE_EXTRA_CA_CERTS);
if (warning) process.stderr.write(`warning: ${warning}\n`);
