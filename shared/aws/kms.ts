import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

export const kms = clientPerLane((requestHandler) =>
  tracedClient(withPlugins(new KMSClient({ region: config().AWS_REGION, requestHandler }))),
);
