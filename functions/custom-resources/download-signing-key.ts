import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ensureDownloadKey, removeDownloadKey } from '../../shared/files/download-key';

/**
 * The deployment's custom resource (the Provider framework's `onEvent`): makes the files bucket's download
 * signing key, keeping its private half in the parameter store, and answers the public half for CloudFront's
 * key group. Created once and answered the same on every update; deleted with the stack.
 */
export const handler = async (event: CloudFormationCustomResourceEvent) => {
  if (event.RequestType === 'Delete') {
    // A create that failed has the framework's own id, which names no parameter.
    if (event.PhysicalResourceId.startsWith('/')) await removeDownloadKey(event.PhysicalResourceId);
    return { PhysicalResourceId: event.PhysicalResourceId };
  }
  const name = String(event.ResourceProperties.ParameterName);
  const { publicKey } = await ensureDownloadKey(name);
  return { PhysicalResourceId: name, Data: { PublicKey: publicKey } };
};
