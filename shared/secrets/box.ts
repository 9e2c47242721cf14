import { config } from '../config';
import { kmsBox } from './kms-box';
import { localBox } from './local-box';
import type { SecretBox } from './secret-box';

let box: SecretBox | undefined;

/** KMS when the deployment names a key (AWS), else a key file on this machine (the local runtime). */
export const secretBox = (): SecretBox => {
  if (!box) {
    const { CHANNEL_SECRETS_KEY_ID, LOCAL_SECRETS_KEY_FILE } = config();
    box = CHANNEL_SECRETS_KEY_ID ? kmsBox(CHANNEL_SECRETS_KEY_ID) : localBox(LOCAL_SECRETS_KEY_FILE);
  }
  return box;
};
