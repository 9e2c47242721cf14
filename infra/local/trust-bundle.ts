import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The one file `npm start` gives Node as NODE_EXTRA_CA_CERTS, in the receiver folder beside `cert.pem`. */
export const TRUST_BUNDLE = 'trusted.pem';

/**
 * Writes `<receiverDir>/trusted.pem`: the certificates the environment already asked Node to trust (the file
 * `inherited` names, e.g. a company proxy's CA) followed by the local receiver's `cert.pem`. Node reads a
 * single extra CA file, so an inherited NODE_EXTRA_CA_CERTS would otherwise replace the receiver's certificate
 * (and `parley listen` could not be reached) or be dropped (and whatever it was for would break). Returns a
 * warning when the inherited file cannot be read; the bundle then holds the receiver's certificate alone.
 */
export const writeTrustBundle = (receiverDir: string, inherited: string | undefined): string | undefined => {
  const bundle = join(receiverDir, TRUST_BUNDLE);
  const own = readFileSync(join(receiverDir, 'cert.pem'), 'utf8');
  const from = inherited ? resolve(inherited) : undefined;
  // A shell that exported what `npm start` set names the bundle itself, or the bare certificate: nothing to add.
  const skip = !from || from === resolve(bundle) || from === resolve(receiverDir, 'cert.pem');
  const readable = !skip && existsSync(from);
  const extra = readable ? readFileSync(from, 'utf8') : '';
  writeFileSync(bundle, `${extra}${extra && !extra.endsWith('\n') ? '\n' : ''}${own}`);
  return !skip && !readable
    ? `NODE_EXTRA_CA_CERTS names ${from}, which does not exist: trusting the local receiver's certificate only`
    : undefined;
};
