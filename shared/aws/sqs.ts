import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { withPlugins } from './plugins';

let client: SQSClient | undefined;

export const sqs = (): SQSClient => {
  if (!client) {
    const { AWS_REGION, SQS_ENDPOINT } = config();
    client = withPlugins(new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT }));
  }
  return client;
};
