import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config';
import { withPlugins } from './plugins';

let client: KMSClient | undefined;

export const kms = (): KMSClient => (client ??= withPlugins(new KMSClient({ region: config().AWS_REGION })));
