import { deployed, secretsConfig } from '../config';
import { kmsBox } from './kms-box';
import type { SecretBox } from './secret-box';

let box: SecretBox | undefined;

/**
 * KMS with the deployment's key, everywhere: the local runtime answers the same KMS calls itself, after its
 * IAM guard checked them against the function's key grant. Call at module scope in a function that seals or
 * opens secrets, so a deployment without the key fails its cold start rather than its first request.
 */
export const secretBox = (): SecretBox => (box ??= kmsBox(secretsConfig().CHANNEL_SECRETS_KEY_ID));

/**
 * Module scope of a function that seals or opens secrets: deployed without its key setting, it fails its
 * cold start. Elsewhere (tools that read the handlers' route options, the local runtime) loading it is harmless.
 */
export const needsSecretBox = (): void => {
  if (deployed()) secretBox();
};
