import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';

export const sqs = clientPerLane((requestHandler) => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return withPlugins(new SQSClient({ region: AWS_REGION, endpoint: SQS_ENDPOINT, requestHandler }));
});
