import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';

export const kms = clientPerLane((requestHandler) => withPlugins(new KMSClient({ region: config().AWS_REGION, requestHandler })));
