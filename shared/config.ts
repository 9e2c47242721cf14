import * as z from 'zod';

const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((v) => v === 'true');

const Env = z.object({
  STAGE: z.string().default('local'),
  AWS_REGION: z.string().default('us-east-1'),
  TABLE_NAME: z.string().default('parley'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  SQS_ENDPOINT: z.url().optional(),
  EVENT_BUS_NAME: z.string().default('parley'),
  /** The realtime WebSocket's URL (wss://…) that tickets name, and its management API (PostToConnection). */
  REALTIME_URL: z.string().default('ws://127.0.0.1:3000/realtime'),
  REALTIME_MANAGEMENT_ENDPOINT: z.url().optional(),
  WEBHOOK_QUEUE_URL: z.string().optional(),
  WEBHOOK_DLQ_URL: z.string().optional(),
  WORKFLOW_QUEUE_URL: z.string().optional(),
  WORKFLOW_DLQ_URL: z.string().optional(),
  CHANNEL_QUEUE_URL: z.string().optional(),
  CHANNEL_DLQ_URL: z.string().optional(),
  BROADCAST_QUEUE_URL: z.string().optional(),
  BROADCAST_DLQ_URL: z.string().optional(),
  BULK_QUEUE_URL: z.string().optional(),
  BULK_DLQ_URL: z.string().optional(),
  /** The private bucket files live in (`<tenant>/<fileId>`); set on the functions its wiring `access.buckets` names. */
  FILES_BUCKET: z.string().default('parley-files'),
  /** Where downloads are served (CloudFront in front of the files bucket; locally its stand-in), and the key that signs their URLs. */
  FILES_DOWNLOAD_URL: z.url().optional(),
  FILES_DOWNLOAD_KEY_PAIR_ID: z.string().optional(),
  FILES_DOWNLOAD_KEY_PARAMETER: z.string().optional(),
  /** Local runtime only: the S3 stand-in's endpoint (path-style addressing); unset on AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** Local runtime only: the key file behind its stand-in for KMS (never read by function code). */
  LOCAL_SECRETS_KEY_FILE: z.string().default('.data/secrets.key'),
  /** Local-only escape hatch for loopback webhook receivers (and workflow HTTP targets); the CDK app never sets it. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  /** Failed authentications tolerated per source IP per rate-limit window. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().positive().default(100),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Set by Lambda itself: this code runs deployed, in a function's container (and writes metrics only there, as CloudWatch embedded metric format). */
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
});

export type Config = z.infer<typeof Env>;

let parsed: Config | undefined;

/** Environment, parsed once per container. The only place that reads `process.env`. */
export const config = (): Config => (parsed ??= Env.parse(process.env));

/**
 * Whether this code runs deployed, in a Lambda container. Read without `config()`: module scope asks it, and
 * the tools and tests that import handlers set the local endpoints only after that.
 */
export const deployed = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env.AWS_LAMBDA_FUNCTION_NAME);

/**
 * The KMS key channel secrets are sealed with: the CDK app sets it on the functions granted the key, the
 * local runtime on every function (its KMS stand-in holds each call to the function's grants). There is no
 * fallback: a function that seals or opens secrets without it fails at cold start.
 */
const MISSING_KEY =
  'CHANNEL_SECRETS_KEY_ID is not set: this function seals or opens channel secrets, but its wiring access grants it no channel-secrets key';
const SecretsEnv = z.object({
  CHANNEL_SECRETS_KEY_ID: z.string({ error: MISSING_KEY }).min(1, MISSING_KEY),
});

export const secretsConfig = (env: NodeJS.ProcessEnv = process.env): z.infer<typeof SecretsEnv> => {
  const result = SecretsEnv.safeParse(env);
  if (!result.success) throw new Error(result.error.issues.map((i) => i.message).join('; '));
  return result.data;
};
