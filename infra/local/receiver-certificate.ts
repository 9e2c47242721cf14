import { join } from 'node:path';
import { localhostCertificate } from './certificate';
import { dataDir } from './runtime-file';

// `npm start`'s pre-step: the certificate local webhook receivers serve with (`npx parley listen`, `npm run
// receiver`), made before Node starts so that the NODE_EXTRA_CA_CERTS `npm start` sets names a file.
await localhostCertificate(join(dataDir(), 'receiver'));
