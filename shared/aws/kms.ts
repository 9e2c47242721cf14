import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';
import { withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

let client: KMSClient | undefined;

export const kms = (): KMSClient => (client ??= tracedClient(withPlugins(new KMSClient({ region: config().AWS_REGION }))));
