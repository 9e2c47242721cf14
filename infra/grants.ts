import type { BucketSpec, BucketUse, FunctionKind, FunctionSpec } from '../functions/wiring/types';
import { requestPipelinePartitions } from '../shared/data/key-conditions';
import { wiring } from '../functions/wiring';

// The one grant table: what a function's wiring `access` allows it to call. The CDK app turns these grants
// into IAM statements, and the local runtime refuses any SDK call outside them with AccessDeniedException,
// so code that would be denied on AWS is denied on a laptop too.

/**
 * Where a grant applies: the table, its secondary indexes, one wiring queue, key or bucket's objects (by name),
 * a bucket's listing (the bucket itself), a bucket's download signing key (its SecureString parameter), the bus,
 * or the realtime API's sockets.
 */
export type GrantResource =
  | { table: 'items' | 'indexes' }
  | { queue: string }
  | { key: string }
  | { bucket: string }
  | { bucketListing: string }
  | { downloadKey: string }
  | { bus: 'parley' }
  | { api: 'realtime' };

export interface Grant {
  actions: readonly string[];
  resource: GrantResource;
  /** When set, only items whose partition key starts with one of these prefixes (IAM `dynamodb:LeadingKeys`). */
  leadingKeyPrefixes?: readonly string[];
  /**
   * A bucket grant covers only object keys under this prefix (IAM resource `<bucket arn>/<prefix>*`); a listing
   * grant only listings of keys under it (IAM condition `s3:prefix`).
   */
  objectKeyPrefix?: string;
}

/** Every DynamoDB call the code makes; TransactWriteItems is authorised part by part through these. */
const READ_ITEMS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
const READ_INDEXES = ['dynamodb:Query'] as const;
const WRITE_ITEMS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'] as const;

/** SendMessageBatch is authorised by sqs:SendMessage. */
export const SEND_ACTIONS = ['sqs:SendMessage'] as const;
/** What a Lambda SQS event source needs on its queue (CDK's grantConsumeMessages), and what lets a consumer defer a message. */
export const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
] as const;

/** What each use of a bucket allows on its objects (S3 asks for PutObjectTagging too when a write carries tags). */
const BUCKET_ACTIONS: Record<Exclude<BucketUse, 'download' | `list:${string}`>, readonly string[]> = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject', 's3:PutObjectTagging'],
  delete: ['s3:DeleteObject'],
  untag: ['s3:DeleteObjectTagging'],
};

export const grantsFor = (
  spec: FunctionSpec,
  kind: FunctionKind,
  consumes?: string,
  buckets: readonly Pick<BucketSpec, 'name' | 'keyPrefix' | 'downloads'>[] = wiring.buckets,
): Grant[] => {
  const grants: Grant[] = [
    { actions: READ_ITEMS, resource: { table: 'items' } },
    { actions: READ_INDEXES, resource: { table: 'indexes' } },
  ];
  if (spec.access.table === 'write') grants.push({ actions: WRITE_ITEMS, resource: { table: 'items' } });
  else if (kind === 'http') {
    grants.push({ actions: ['dynamodb:UpdateItem'], resource: { table: 'items' }, leadingKeyPrefixes: requestPipelinePartitions });
  }
  for (const queue of spec.access.queues ?? []) grants.push({ actions: SEND_ACTIONS, resource: { queue } });
  if (consumes) grants.push({ actions: CONSUME_ACTIONS, resource: { queue: consumes } });
  for (const [key, uses] of Object.entries(spec.access.keys ?? {}))
    grants.push({ actions: uses.map((u) => KEY_ACTIONS[u]), resource: { key } });
  for (const [bucket, uses] of Object.entries(spec.access.buckets ?? {})) {
    const declared = buckets.find((b) => b.name === bucket);
    if (!declared) throw new Error(`${spec.handler} is granted bucket ${bucket}, which the wiring does not declare`);
    const objectActions = uses.flatMap((u) =>
      u === 'download' || u.startsWith('list:') ? [] : BUCKET_ACTIONS[u as keyof typeof BUCKET_ACTIONS],
    );
    if (objectActions.length) grants.push({ actions: objectActions, resource: { bucket }, objectKeyPrefix: declared.keyPrefix });
    for (const use of uses.filter((u) => u.startsWith('list:'))) {
      const objectKeyPrefix = declared.keyPrefix + use.slice('list:'.length);
      grants.push({ actions: ['s3:ListBucket'], resource: { bucketListing: bucket }, objectKeyPrefix });
    }
    if (uses.includes('download')) {
      if (!declared.downloads) throw new Error(`${spec.handler} signs downloads of bucket ${bucket}, which has no downloads`);
      // Signing a URL is local; the key is what it needs (decrypted with the account's aws/ssm key, which SSM uses for it).
      grants.push({ actions: ['ssm:GetParameter'], resource: { downloadKey: bucket } });
    }
  }
  if (spec.access.bus) grants.push({ actions: ['events:PutEvents'], resource: { bus: 'parley' } });
  if (spec.access.connections) grants.push({ actions: ['execute-api:ManageConnections'], resource: { api: 'realtime' } });
  return grants;
};

/** What sealing and opening a secret with a KMS key needs (encryption context is always given, never a grant condition). */
const KEY_ACTIONS = { encrypt: 'kms:Encrypt', decrypt: 'kms:Decrypt' } as const;

/** One call a function makes, as IAM sees it. */
export interface CallRequest {
  action: string;
  resource: GrantResource;
  /** The partition key value(s) the call addresses, when IAM would evaluate `dynamodb:LeadingKeys`. */
  leadingKeys?: readonly string[];
  /** The object key an S3 call addresses. */
  objectKey?: string;
}

const sameResource = (a: GrantResource, b: GrantResource) => JSON.stringify(a) === JSON.stringify(b);

/** IAM's verdict: some grant names the action and resource, and every leading key fits its prefixes. */
export const allows = (grants: readonly Grant[], call: CallRequest): boolean =>
  grants.some(
    (g) =>
      g.actions.includes(call.action) &&
      sameResource(g.resource, call.resource) &&
      (g.objectKeyPrefix === undefined || call.objectKey?.startsWith(g.objectKeyPrefix) === true) &&
      (!g.leadingKeyPrefixes ||
        (call.leadingKeys !== undefined &&
          call.leadingKeys.length > 0 &&
          call.leadingKeys.every((k) => g.leadingKeyPrefixes!.some((p) => k.startsWith(p))))),
  );
