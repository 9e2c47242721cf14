import * as z from 'zod';

const flag = z.enum(['true', 'false']).default('false').transform((v) => v === 'true');

const Env = z.object({
  STAGE: z.string().default('local'),
  AWS_REGION: z.string().default('us-east-1'),
  TABLE_NAME: z.string().default('parley'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  SQS_ENDPOINT: z.url().optional(),
  EVENT_BUS_NAME: z.string().default('parley'),
  WEBHOOK_QUEUE_URL: z.string().optional(),
  WEBHOOK_DLQ_URL: z.string().optional(),
  WORKFLOW_QUEUE_URL: z.string().optional(),
  WORKFLOW_DLQ_URL: z.string().optional(),
  CHANNEL_QUEUE_URL: z.string().optional(),
  CHANNEL_DLQ_URL: z.string().optional(),
  BROADCAST_QUEUE_URL: z.string().optional(),
  BROADCAST_DLQ_URL: z.string().optional(),
  /** The KMS key channel secrets are sealed with (set by the CDK app on the functions granted it). */
  CHANNEL_SECRETS_KEY_ID: z.string().optional(),
  /** Local runtime only: the key file that stands in for KMS when no key id is set. */
  LOCAL_SECRETS_KEY_FILE: z.string().default('.data/secrets.key'),
  /** Local-only escape hatch for loopback webhook receivers (and workflow HTTP targets); the CDK app never sets it. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  /** Failed authentications tolerated per source IP per rate-limit window. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().positive().default(100),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Set by Lambda itself: metrics are written (as CloudWatch embedded metric format) only there. */
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
});

export type Config = z.infer<typeof Env>;

let parsed: Config | undefined;

/** Environment, parsed once per container. The only place that reads `process.env`. */
export const config = (): Config => (parsed ??= Env.parse(process.env));
