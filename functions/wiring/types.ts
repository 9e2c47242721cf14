/** What a function touches; `infra/grants.ts` turns it into the least-privilege grants CDK deploys and the local runtime enforces. */
export interface Access {
  /** Table access: `read` (Get/Query/BatchGet), `write` (adds Put/Update/Delete/ConditionCheck, also inside transactions). */
  table: 'read' | 'write';
  /** Queues (by wiring name) the function sends messages to; a queue's consumer may also receive from and defer on its own queue. */
  queues?: readonly string[];
  /** KMS keys (by wiring name) and what the function does with each: seal secrets (`encrypt`), open them (`decrypt`). */
  keys?: Readonly<Record<string, readonly ('encrypt' | 'decrypt')[]>>;
  /**
   * Buckets (by wiring name) and what the function does with their objects: `read` (GetObject, also what a
   * presigned GET it signs needs), `write` (PutObject with tags: PutObjectTagging too, also a presigned POST's),
   * `delete` (DeleteObject), `untag` (DeleteObjectTagging), `list:<prefix>` (ListObjectsV2 of the keys under
   * that prefix of the bucket's, never their bytes), `download` (sign download URLs: read the bucket's download signing key, never its objects).
   */
  buckets?: Readonly<Record<string, readonly BucketUse[]>>;
  /** Puts events on the Parley bus (EventBridge PutEvents). */
  bus?: true;
  /** Posts to and closes the realtime API's sockets (execute-api:ManageConnections on that API only). */
  connections?: true;
}

export type BucketUse = 'read' | 'write' | 'delete' | 'untag' | `list:${string}` | 'download';

/** How a function is invoked: its grants and its default memory and timeout follow from it. */
export type FunctionKind = 'http' | 'queue' | 'event' | 'schedule';

export interface FunctionSpec {
  /** Source file relative to the repo root; it exports `handler`. */
  handler: string;
  access: Access;
  memoryMb?: number;
  timeoutSeconds?: number;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HttpRoute extends FunctionSpec {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/v1/integrations/webhooks/{id}`. The scope is declared once, by the handler. */
  path: string;
  summary: string;
  /**
   * The deliberate exception to "every request carries a token": a public document answered without auth,
   * workspace or rate limit. Its handler says so too (`route({ public: true })`); `route-handlers.ts` checks
   * they agree, and the route-wide gates read it from here.
   */
  public?: true;
}

export interface QueueSpec {
  name: string;
  /** Environment variable that carries the queue URL to the functions that use it. */
  urlEnv: string;
  visibilityTimeoutSeconds: number;
  retentionDays: number;
  dlq: { name: string; urlEnv: string; maxReceiveCount: number };
  consumer: FunctionSpec & { batchSize: number; maxConcurrency: number };
  /** Alarm when the oldest message has waited this long (deployed only; default 900). */
  ageAlarmSeconds?: number;
}

/** The subset of EventBridge patterns the local router understands: exact values, `prefix` and `anything-but` a prefix. */
export type PatternValue = string | { prefix: string } | { 'anything-but': { prefix: string } };
export interface EventPattern {
  source: readonly string[];
  'detail-type'?: readonly string[];
  detail?: Record<string, unknown>;
}

export interface EventRule {
  name: string;
  pattern: EventPattern;
  target: FunctionSpec;
  /**
   * A rule for a bucket's S3 notifications (source `aws.s3`): it listens on the account's default bus, where
   * S3 puts them, and matches only that bucket's objects (`detail.bucket.name`, filled in by CDK and locally).
   */
  bucket?: string;
}

export interface ScheduleSpec {
  name: string;
  everyMinutes: number;
  target: FunctionSpec;
}

/** The realtime WebSocket API's routes, as API Gateway names them: `$connect`, `$disconnect` and `$default`. */
export interface SocketSpec {
  connect: FunctionSpec;
  disconnect: FunctionSpec;
  default: FunctionSpec;
}

/** A KMS key the deployment creates; functions granted it get its ARN in `idEnv`. */
export interface KeySpec {
  name: string;
  idEnv: string;
  description: string;
}

/** A bucket's lifecycle rule: which objects it expires (by tag or by key prefix) and after how many days. */
export type ExpiryRuleSpec = { id: string; days: number } & ({ tag: { key: string; value: string } } | { prefix: string });

/** A private S3 bucket the deployment creates; functions granted it get its name in `nameEnv`. */
export interface BucketSpec {
  name: string;
  nameEnv: string;
  description: string;
  /** Grants cover only keys under this prefix (IAM resource `<bucket arn>/<prefix>*`); '' for the whole bucket. */
  keyPrefix: string;
  /**
   * Lifecycle rules: an object carrying `tag`, or whose key starts with `prefix`, expires `days` after it was
   * created (locally, the S3 stand-in's timer expires it).
   */
  expire?: readonly ExpiryRuleSpec[];
  /**
   * Objects are downloaded through a CDN in front of the bucket (CloudFront with origin access control; locally
   * its stand-in) that adds the response headers S3 cannot, by URLs signed with the bucket's download key. A
   * function granted `download` gets the CDN's base URL, the key's id and the key's parameter in these variables.
   */
  downloads?: { urlEnv: string; keyPairIdEnv: string; keyParameterEnv: string; headers: DownloadHeaders };
}

/** The response headers policy of a bucket's downloads (CloudFront's, and its local stand-in's). */
export interface DownloadHeaders {
  /** `X-Content-Type-Options: nosniff` on every answer. */
  noSniff: true;
  contentSecurityPolicy: string;
  frameOptions: 'DENY' | 'SAMEORIGIN';
  referrerPolicy: 'no-referrer' | 'same-origin' | 'strict-origin';
  /** Other headers: `override` replaces what the origin answered; otherwise the header is added only when the origin answered none. */
  custom: readonly { header: string; value: string; override: boolean }[];
}

export interface Wiring {
  routes: readonly HttpRoute[];
  /** Handles requests that match no route (404, or 405 reported as 404 with the allowed methods). */
  fallback: FunctionSpec;
  queues: readonly QueueSpec[];
  rules: readonly EventRule[];
  schedules: readonly ScheduleSpec[];
  keys: readonly KeySpec[];
  buckets: readonly BucketSpec[];
  /** The realtime WebSocket API (docs/guide/realtime.md); a wiring without one deploys no WebSocket API. */
  socket?: SocketSpec;
}

/** What one area module (`functions/wiring/<area>.ts`, exporting `<area>Wiring`) contributes to the wiring. */
export type AreaWiring = Partial<Omit<Wiring, 'fallback' | 'socket'>>;
