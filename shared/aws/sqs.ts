import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';
import { requestIdOnMessages } from '../observability/correlation';
import { tracedClient } from '../observability/tracing';

export const sqs = clientPerLane((requestHandler) => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  const client = tracedClient(withPlugins(new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT, requestHandler })));
  client.middlewareStack.use(requestIdOnMessages);
  return client;
});
