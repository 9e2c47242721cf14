import { config } from '../config';
import { clientPerLane, onFirstUse, withPlugins } from './plugins';
import { requestIdOnMessages } from '../observability/correlation';
import { tracedClient } from '../observability/tracing';

/**
 * The SQS SDK and its client, loaded at the first send: most functions that can enqueue (a route that
 * starts a job, a subscription's test delivery, an erasure) answer most requests without it, so their cold
 * start does not pay for it.
 */
const loaded = onFirstUse(async () => {
  const sdk = await import('@aws-sdk/client-sqs');
  const client = clientPerLane((requestHandler) => {
    const { AWS_REGION, SQS_ENDPOINT } = config();
    const lane = tracedClient(withPlugins(new sdk.SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT, requestHandler })));
    lane.middlewareStack.use(requestIdOnMessages);
    return lane;
  });
  return { sdk, client };
});

/** The SQS SDK (its commands) and the current lane's client. */
export const sqs = async () => {
  const { sdk, client } = await loaded();
  return { sdk, client: client() };
};
