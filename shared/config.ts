/**
 * The environment, read by hand rather than by a zod schema: a schema of 30 variables is about 70 schema
 * objects, which every function would build at its cold start to read a handful of strings (issue 40).
 * Each variable is one of four kinds; an invalid one fails the first `config()` with every problem named.
 */
type Reader<T> = (value: string | undefined) => T;

class Invalid extends Error {}

const text =
  (fallback: string): Reader<string> =>
  (value) =>
    value ?? fallback;

const optionalText: Reader<string | undefined> = (value) => value;

/** An absolute URL as WHATWG's parser reads it (what `z.url()` accepts), without its surrounding spaces, tabs or newlines. */
const optionalUrl: Reader<string | undefined> = (value) => {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!URL.canParse(trimmed)) throw new Invalid('must be a URL');
  return trimmed.replace(/[\t\n\r]/g, '');
};

const oneOf =
  <const T extends string>(values: readonly T[], fallback: T): Reader<T> =>
  (value) => {
    if (value === undefined) return fallback;
    if (!(values as readonly string[]).includes(value)) throw new Invalid(`must be one of ${values.map((v) => `"${v}"`).join(', ')}`);
    return value as T;
  };

const trueOrFalse = oneOf(['true', 'false'], 'false');
const flag: Reader<boolean> = (value) => trueOrFalse(value) === 'true';

const positiveInteger =
  (fallback: number): Reader<number> =>
  (value) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Invalid('must be a positive integer');
    return n;
  };

const ENV = {
  STAGE: text('local'),
  AWS_REGION: text('us-east-1'),
  TABLE_NAME: text('parley'),
  DYNAMODB_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  EVENT_BUS_NAME: text('parley'),
  /** The realtime WebSocket's URL (wss://…) that tickets name, and its management API (PostToConnection). */
  REALTIME_URL: text('ws://127.0.0.1:3000/realtime'),
  REALTIME_MANAGEMENT_ENDPOINT: optionalUrl,
  WEBHOOK_QUEUE_URL: optionalText,
  WEBHOOK_DLQ_URL: optionalText,
  WORKFLOW_QUEUE_URL: optionalText,
  WORKFLOW_DLQ_URL: optionalText,
  CHANNEL_QUEUE_URL: optionalText,
  CHANNEL_DLQ_URL: optionalText,
  BROADCAST_QUEUE_URL: optionalText,
  BROADCAST_DLQ_URL: optionalText,
  BULK_QUEUE_URL: optionalText,
  BULK_DLQ_URL: optionalText,
  /** The private bucket files live in (`<tenant>/<fileId>`); set on the functions its wiring `access.buckets` names. */
  FILES_BUCKET: text('parley-files'),
  /** Where downloads are served (CloudFront in front of the files bucket; locally its stand-in), and the key that signs their URLs. */
  FILES_DOWNLOAD_URL: optionalUrl,
  FILES_DOWNLOAD_KEY_PAIR_ID: optionalText,
  FILES_DOWNLOAD_KEY_PARAMETER: optionalText,
  /** Local runtime only: the S3 stand-in's endpoint (path-style addressing); unset on AWS. */
  S3_ENDPOINT: optionalUrl,
  /** Local runtime only: the key file behind its stand-in for KMS (never read by function code). */
  LOCAL_SECRETS_KEY_FILE: text('.data/secrets.key'),
  /** Local-only escape hatch for loopback webhook receivers (and workflow HTTP targets); the CDK app never sets it. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  /** Failed authentications tolerated per source IP per rate-limit window. */
  AUTH_FAILURE_LIMIT: positiveInteger(100),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'], 'info'),
  /** Set by Lambda itself: this code runs deployed, in a function's container (and writes metrics only there, as CloudWatch embedded metric format). */
  AWS_LAMBDA_FUNCTION_NAME: optionalText,
} satisfies Record<string, Reader<unknown>>;

export type Config = { [K in keyof typeof ENV]: ReturnType<(typeof ENV)[K]> };

/** Every variable of `ENV` read from `env`; an unset optional one is absent, as a parsed schema leaves it. */
export const readConfig = (env: NodeJS.ProcessEnv): Config => {
  const read: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, reader] of Object.entries(ENV)) {
    try {
      const value = (reader as Reader<unknown>)(env[name]);
      if (value !== undefined) read[name] = value;
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      problems.push(`${name} ${error.message}`);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid environment: ${problems.join('; ')}`);
  return read as Config;
};

let parsed: Config | undefined;

/** Environment, parsed once per container. The only place that reads `process.env`. */
export const config = (): Config => (parsed ??= readConfig(process.env));

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

export const secretsConfig = (env: NodeJS.ProcessEnv = process.env): { CHANNEL_SECRETS_KEY_ID: string } => {
  const key = env.CHANNEL_SECRETS_KEY_ID;
  if (!key) throw new Error(MISSING_KEY);
  return { CHANNEL_SECRETS_KEY_ID: key };
};
