import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { FinalizeRequestMiddleware, Pluggable } from '@smithy/types';
import { registerClientPlugin, registerSigningIdentity, type SigningIdentity } from '../../shared/aws/plugins';
import { tableSchema } from '../../shared/data/table';
import { allows, type CallRequest, type Grant, type GrantResource } from '../grants';
import type { FunctionKind, Wiring } from '../../functions/wiring/types';
import { dynamoLimitError, sqsLimitError, type LimitError } from './aws-limits';
import type { Principal } from './s3-post-policy';

/**
 * Makes the local runtime refuse what AWS would refuse. Every SDK call a function makes is checked against
 * the grants its wiring `access` gives it (the same table CDK deploys): DynamoDB, SQS and KMS calls by
 * action and resource (S3: by bucket and object key), and any other client's calls refused outright, as IAM refuses what no policy allows.
 * Every call, inside a function or not, is also checked against the service limits the emulators do not enforce.
 *
 * Each function also signs as its own role, as Lambda hands every function its role's session credentials: what
 * it presigns (a POST policy, a GET URL) names that session, and the S3 stand-in holds the request to the
 * session's grants when it arrives, as S3 asks IAM about the signer (`sessionPrincipal`).
 */
export interface Caller {
  name: string;
  kind: FunctionKind;
  grants: readonly Grant[];
}

const callers = new AsyncLocalStorage<Caller>();

/** A role session's credentials, and whose they are. */
const sessions = new Map<string, { caller: Caller; identity: Required<SigningIdentity> }>();
const sessionOf = new WeakMap<Caller, Required<SigningIdentity>>();

/**
 * The caller's role session: an `ASIA…` key, its secret and a session token, derived from the function's name
 * and grants and the account's own secret, so they are the same after a restart (a URL signed before it still
 * verifies) and a function granted something else is another principal.
 */
const roleSession = (caller: Caller): Required<SigningIdentity> => {
  let identity = sessionOf.get(caller);
  if (!identity) {
    const digest = createHash('sha256')
      .update(JSON.stringify([caller.name, caller.kind, caller.grants]))
      .digest('hex');
    const accessKeyId = `ASIA${digest.slice(0, 16).toUpperCase()}`;
    identity = {
      accessKeyId,
      secretAccessKey: createHmac('sha256', process.env.AWS_SECRET_ACCESS_KEY ?? 'local')
        .update(accessKeyId)
        .digest('base64')
        .slice(0, 40),
      sessionToken: Buffer.from(`parley-local-session:${caller.name}:${digest}`).toString('base64'),
    };
    sessionOf.set(caller, identity);
    sessions.set(accessKeyId, { caller, identity });
  }
  return identity;
};

/** Gives the caller its role session now (the local runtime does it for every function of the wiring at start). */
export const assumeRole = (caller: Caller): void => {
  roleSession(caller);
};

/** Runs `fn` as the named function: its SDK calls are held to `grants`, and it signs as its role session. */
export const runAs = <T>(caller: Caller, fn: () => Promise<T>): Promise<T> => {
  roleSession(caller);
  return callers.run(caller, fn);
};

/** The function whose code is running, if any (for attributing work, e.g. in benchmarks). */
export const currentFunction = (): string | undefined => callers.getStore()?.name;

/** How the running function was triggered, if any. */
export const currentKind = (): FunctionKind | undefined => callers.getStore()?.kind;

type Input = Record<string, any>;
type Key = Record<string, AttributeValue> | undefined;

type Service = 'dynamodb' | 'sqs' | 'kms' | 's3' | 'ssm' | 'events' | 'execute-api';

/** The IAM service prefix of a client's calls; undefined for a client no grant can name. */
const SERVICES: Record<string, Service> = {
  DynamoDBClient: 'dynamodb',
  SQSClient: 'sqs',
  KMSClient: 'kms',
  S3Client: 's3',
  SSMClient: 'ssm',
  EventBridgeClient: 'events',
  ApiGatewayManagementApiClient: 'execute-api',
};

/** The one resource each of these services' calls can name here: the Parley bus, the realtime API. */
const SINGLE_RESOURCE: Partial<Record<Service, { action: (command: string) => string; resource: GrantResource }>> = {
  events: { action: (command) => `events:${command}`, resource: { bus: 'parley' } },
  // IAM authorises PostToConnection, GetConnection and DeleteConnection as execute-api:ManageConnections.
  'execute-api': { action: () => 'execute-api:ManageConnections', resource: { api: 'realtime' } },
};

const leadingKey = (key: Key) => key?.[tableSchema.partitionKey]?.S;

/** IAM's view of a DynamoDB call: one request per action and resource it needs, with the partition keys it touches. */
const dynamoRequests = (command: string, input: Input, table: string): CallRequest[] | 'other-table' => {
  const onItems = (action: string, tableName: string | undefined, keys: Key[]): CallRequest | 'other-table' =>
    tableName !== table
      ? 'other-table'
      : { action: `dynamodb:${action}`, resource: { table: 'items' }, leadingKeys: keys.map(leadingKey).filter((k): k is string => !!k) };
  const parts: (CallRequest | 'other-table')[] = [];
  switch (command) {
    case 'TransactWriteItems':
      for (const part of (input.TransactItems ?? []) as Input[]) {
        if (part.Put) parts.push(onItems('PutItem', part.Put.TableName, [part.Put.Item]));
        if (part.Update) parts.push(onItems('UpdateItem', part.Update.TableName, [part.Update.Key]));
        if (part.Delete) parts.push(onItems('DeleteItem', part.Delete.TableName, [part.Delete.Key]));
        if (part.ConditionCheck) parts.push(onItems('ConditionCheckItem', part.ConditionCheck.TableName, [part.ConditionCheck.Key]));
      }
      break;
    case 'TransactGetItems':
      for (const part of (input.TransactItems ?? []) as Input[]) parts.push(onItems('GetItem', part.Get?.TableName, [part.Get?.Key]));
      break;
    case 'BatchGetItem':
    case 'BatchWriteItem':
      for (const [tableName, request] of Object.entries((input.RequestItems ?? {}) as Record<string, any>)) {
        const keys: Key[] =
          command === 'BatchGetItem' ? request.Keys : request.map((r: Input) => r.PutRequest?.Item ?? r.DeleteRequest?.Key);
        parts.push(onItems(command, tableName, keys));
      }
      break;
    case 'Query':
      if (input.TableName !== table) return 'other-table';
      // The key condition's partition value is not extracted: a grant limited to leading keys never covers a Query.
      parts.push({ action: 'dynamodb:Query', resource: { table: input.IndexName ? 'indexes' : 'items' } });
      break;
    default:
      parts.push(onItems(command, input.TableName, [input.Key ?? input.Item]));
  }
  return parts.includes('other-table') ? 'other-table' : (parts as CallRequest[]);
};

/** SQS authorises batch calls by the single-message action. */
const sqsAction = (command: string) => `sqs:${command.replace(/Batch$/, '')}`;

const queueNameOf = (wiring: Wiring, url: string | undefined): string | undefined => {
  for (const q of wiring.queues) {
    if (process.env[q.urlEnv] === url) return q.name;
    if (process.env[q.dlq.urlEnv] === url) return q.dlq.name;
  }
  return undefined;
};

const serviceError = (error: LimitError, serviceName: string): Error =>
  Object.assign(new Error(error.message), {
    name: error.name,
    $fault: 'client',
    $service: serviceName,
    $metadata: { httpStatusCode: 400 },
  });

const denied = (caller: Caller, action: string, resource: string, serviceName: string): Error =>
  serviceError(
    {
      name: serviceName === 'sqs' || serviceName === 's3' ? 'AccessDenied' : 'AccessDeniedException',
      message: `User: arn:aws:sts::000000000000:assumed-role/${caller.name}/${caller.name} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
    },
    serviceName,
  );

const describe = (resource: GrantResource, table: string, objectKey?: string) =>
  'bus' in resource
    ? 'arn:aws:events:us-east-1:000000000000:event-bus/parley'
    : 'api' in resource
      ? 'arn:aws:execute-api:us-east-1:000000000000:realtime/$default/POST/@connections/*'
      : 'bucket' in resource
        ? `arn:aws:s3:::${resource.bucket}/${objectKey ?? ''}`
        : 'bucketListing' in resource
          ? `arn:aws:s3:::${resource.bucketListing}`
          : 'queue' in resource
            ? `arn:aws:sqs:us-east-1:000000000000:${resource.queue}`
            : 'key' in resource
              ? `arn:aws:kms:us-east-1:000000000000:alias/${resource.key}`
              : 'downloadKey' in resource
                ? `arn:aws:ssm:us-east-1:000000000000:parameter/${resource.downloadKey}`
                : `arn:aws:dynamodb:us-east-1:000000000000:table/${table}${resource.table === 'indexes' ? '/index/*' : ''}`;

const keyNameOf = (wiring: Wiring, keyId: string | undefined): string | undefined =>
  wiring.keys.find((k) => process.env[k.idEnv] === keyId)?.name;

/** The bucket whose download signing key the parameter `name` is. */
const downloadKeyOf = (wiring: Wiring, name: string | undefined): string | undefined =>
  wiring.buckets.find((b) => b.downloads && process.env[b.downloads.keyParameterEnv] === name)?.name;

const bucketNameOf = (wiring: Wiring, bucket: string | undefined): string | undefined =>
  wiring.buckets.find((b) => process.env[b.nameEnv] === bucket)?.name;

/** The object actions IAM knows the S3 calls the code makes by (a ranged GET is GetObject; HeadObject needs GetObject). */
const S3_ACTIONS: Record<string, string> = {
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  PutObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  DeleteObject: 's3:DeleteObject',
};

/** IAM's verdict on an S3 object action by `grants` on the bucket named `bucket` (as deployed) and its key. */
const allowsObjectAction = (
  wiring: Wiring,
  grants: readonly Grant[],
  action: string,
  bucket: string | undefined,
  key: string | undefined,
) => {
  const name = bucketNameOf(wiring, bucket);
  return name !== undefined && allows(grants, { action, resource: { bucket: name }, objectKey: key });
};

/**
 * An S3 call is judged once signed, as S3 judges it when it arrives. A presigned request never gets that far
 * (the presigner takes its URL just before the signing middleware and sends nothing): S3 asks IAM about it
 * only when its holder sends it, and the S3 stand-in does that with `sessionPrincipal`.
 */
const checkS3 = (wiring: Wiring, command: string, input: Input): void => {
  const caller = callers.getStore();
  if (!caller) return;
  if (command === 'ListObjectsV2') {
    // A listing is an action on the bucket itself, allowed for the keys under a prefix (`s3:prefix`).
    const name = bucketNameOf(wiring, input.Bucket);
    const request: CallRequest = { action: 's3:ListBucket', resource: { bucketListing: name ?? '' }, objectKey: input.Prefix ?? '' };
    if (name === undefined || !allows(caller.grants, request)) {
      throw denied(caller, request.action, describe({ bucketListing: String(input.Bucket) }, ''), 's3');
    }
    return;
  }
  // A PutObject (or a multipart upload) that tags the object needs PutObjectTagging too.
  const tags = (command === 'PutObject' || command === 'CreateMultipartUpload') && input.Tagging;
  const actions = [S3_ACTIONS[command] ?? `s3:${command}`, ...(tags ? ['s3:PutObjectTagging'] : [])];
  const refused = actions.find((action) => !allowsObjectAction(wiring, caller.grants, action, input.Bucket, input.Key));
  if (refused) throw denied(caller, refused, describe({ bucket: String(input.Bucket) }, '', input.Key), 's3');
};

const check = (wiring: Wiring, clientName: string, command: string, input: Input): void => {
  const serviceName = SERVICES[clientName];
  if (serviceName === 's3') return;
  const limit =
    serviceName === 'dynamodb' ? dynamoLimitError(command, input) : serviceName === 'sqs' ? sqsLimitError(command, input) : undefined;
  if (limit) throw serviceError(limit, serviceName!);
  const caller = callers.getStore();
  if (!caller) return;
  if (!serviceName) {
    const prefix = clientName.replace(/Client$/, '').toLowerCase();
    throw denied(caller, `${prefix}:${command}`, '*', prefix);
  }
  const table = process.env.TABLE_NAME ?? 'parley';
  const single = SINGLE_RESOURCE[serviceName];
  if (single) {
    const request: CallRequest = { action: single.action(command), resource: single.resource };
    if (!allows(caller.grants, request)) throw denied(caller, request.action, describe(request.resource, table), serviceName);
    return;
  }
  if (serviceName === 'kms') {
    const key = keyNameOf(wiring, input.KeyId);
    const request: CallRequest = { action: `kms:${command}`, resource: { key: key ?? String(input.KeyId) } };
    if (!key || !allows(caller.grants, request)) throw denied(caller, request.action, describe(request.resource, table), serviceName);
    return;
  }
  if (serviceName === 'ssm') {
    const bucket = downloadKeyOf(wiring, input.Name);
    const request: CallRequest = { action: `ssm:${command}`, resource: { downloadKey: bucket ?? String(input.Name) } };
    if (!bucket || !allows(caller.grants, request))
      throw denied(caller, request.action, `arn:aws:ssm:us-east-1:000000000000:parameter${String(input.Name)}`, serviceName);
    return;
  }
  if (serviceName === 'dynamodb') {
    const requests = dynamoRequests(command, input, table);
    if (requests === 'other-table')
      throw denied(caller, `dynamodb:${command}`, `arn:aws:dynamodb:us-east-1:000000000000:table/${String(input.TableName)}`, serviceName);
    const refused = requests.find((r) => !allows(caller.grants, r));
    if (refused) throw denied(caller, refused.action, describe(refused.resource, table), serviceName);
    return;
  }
  const queue = queueNameOf(wiring, input.QueueUrl);
  const request: CallRequest = { action: sqsAction(command), resource: { queue: queue ?? String(input.QueueUrl) } };
  if (!queue || !allows(caller.grants, request)) throw denied(caller, request.action, describe(request.resource, table), serviceName);
};

const commandOf = (context: { commandName?: string }) => (context.commandName ?? '').replace(/Command$/, '');

/**
 * The SDK middleware: runs after the document client marshalled the input, before the request is signed and
 * sent (the local KMS answers right after it); an S3 call is checked right after signing, where a presigner
 * has already taken its URL.
 */
const guardPlugin = (wiring: Wiring): Pluggable<any, any> => ({
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        check(wiring, context.clientName ?? '', commandOf(context), args.input as Input);
        return next(args);
      },
      { step: 'build', name: 'parleyLocalAwsGuard', priority: 'high' },
    );
    const s3Guard: FinalizeRequestMiddleware<any, any> = (next, context) => async (args) => {
      if (SERVICES[context.clientName ?? ''] === 's3') checkS3(wiring, commandOf(context), args.input as Input);
      return next(args);
    };
    stack.addRelativeTo(s3Guard, { relation: 'after', toMiddleware: 'awsAuthMiddleware', name: 'parleyLocalS3Guard' });
  },
});

/**
 * The principal S3 sees behind a role session's access key: the function whose session it is, held to its
 * grants. Undefined for a key no function's session has.
 */
export const sessionPrincipal = (wiring: Wiring, accessKeyId: string): Principal | undefined => {
  const session = sessions.get(accessKeyId);
  return (
    session && {
      secretAccessKey: session.identity.secretAccessKey,
      sessionToken: session.identity.sessionToken,
      may: (action, bucket, key) => allowsObjectAction(wiring, session.caller.grants, action, bucket, key),
    }
  );
};

let installed = false;

/** Registers the guard on every AWS client created from now on, and makes each sign as the running function (idempotent). */
export const installAwsGuard = (wiring: Wiring): void => {
  if (installed) return;
  installed = true;
  registerClientPlugin(guardPlugin(wiring));
  registerSigningIdentity(() => {
    const caller = callers.getStore();
    return caller && roleSession(caller);
  });
};
