/**
 * Every price `npm run cost` uses: AWS list prices in us-east-1 as read on `PRICES_AS_OF`, arm64 Lambda, no
 * free tier (an account's free tier is shared with whatever else runs in it). Update the date with any price.
 */
export const PRICES_AS_OF = '2025-11-01';
export const PRICE_REGION = 'us-east-1';

export const PRICES = {
  alarmMetric: { usd: 0.1, per: 'alarm metric-month (standard resolution; a metric-math alarm pays for each metric in it)' },
  kmsKey: { usd: 1.0, per: 'customer managed KMS key-month' },
  dashboard: { usd: 3.0, per: 'CloudWatch dashboard-month' },
  wafWebAcl: { usd: 5.0, per: 'WAF web ACL-month' },
  wafRule: { usd: 1.0, per: 'WAF rule or managed rule group-month' },
  wafRequest: { usd: 0.6 / 1e6, per: 'WAF request' },
  httpApiRequest: { usd: 1.0 / 1e6, per: 'HTTP API request' },
  webSocketMessage: { usd: 1.0 / 1e6, per: 'WebSocket API message, either way (metered in 32 KB steps)' },
  webSocketMinute: { usd: 0.25 / 1e6, per: 'WebSocket API connection minute' },
  lambdaRequest: { usd: 0.2 / 1e6, per: 'Lambda invocation' },
  lambdaGbSecond: { usd: 0.0000133334, per: 'Lambda GB-second (arm64)' },
  schedulerInvocation: { usd: 1.0 / 1e6, per: 'EventBridge Scheduler invocation' },
  sqsRequest: { usd: 0.4 / 1e6, per: 'SQS request (standard queue)' },
  dynamoWriteUnit: { usd: 0.625 / 1e6, per: 'DynamoDB on-demand write request unit' },
  dynamoReadUnit: { usd: 0.125 / 1e6, per: 'DynamoDB on-demand read request unit' },
  streamReadRequest: { usd: 0.2 / 1e6, per: 'DynamoDB Streams read request (GetRecords)' },
  busEvent: { usd: 1.0 / 1e6, per: 'EventBridge custom event published' },
  pipeEvent: { usd: 0.4 / 1e6, per: 'EventBridge Pipes request after filtering' },
  logsIngestGb: { usd: 0.5, per: 'GB of CloudWatch Logs ingested' },
  xrayTrace: { usd: 5.0 / 1e6, per: 'X-Ray trace recorded' },
  transferOutGb: { usd: 0.09, per: 'GB of data transfer out to the internet' },
  s3StorageGb: { usd: 0.023, per: 'GB-month of S3 Standard storage' },
  s3PutRequest: { usd: 0.005 / 1000, per: 'S3 PUT, POST or DELETE-tier request' },
  s3GetRequest: { usd: 0.0004 / 1000, per: 'S3 GET request (ranged GETs included)' },
  cloudFrontRequest: { usd: 0.01 / 10_000, per: 'CloudFront HTTPS request (United States, Europe)' },
  cloudFrontTransferOutGb: { usd: 0.085, per: 'GB of CloudFront data transfer out (United States, Europe, first 10 TB)' },
} as const;

export type PriceName = keyof typeof PRICES;
