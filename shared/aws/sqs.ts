import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { withPlugins } from './plugins';
import { requestIdOnMessages } from '../observability/correlation';
import { tracedClient } from '../observability/tracing';

let client: SQSClient | undefined;

export const sqs = (): SQSClient => {
  if (!client) {
    const { AWS_REGION, SQS_ENDPOINT } = config();
    client = tracedClient(withPlugins(new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT })));
    client.middlewareStack.use(requestIdOnMessages);
  }
  return client;
};
