import { config } from '../config';
import { clientPerLane, onFirstUse, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

/**
 * The KMS SDK and its client, loaded at the first seal or open: a channel route or a broadcast worker answers
 * its first request (a refusal, a channel with no credentials, an empty batch) without it, so its cold start
 * does not pay for it.
 */
const loaded = onFirstUse(async () => {
  const sdk = await import('@aws-sdk/client-kms');
  const client = clientPerLane((requestHandler) =>
    tracedClient(withPlugins(new sdk.KMSClient({ region: config().AWS_REGION, requestHandler }))),
  );
  return { sdk, client };
});

/** The KMS SDK (its commands) and the current lane's client. */
export const kms = async () => {
  const { sdk, client } = await loaded();
  return { sdk, client: client() };
};
