import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What S3 checks of a browser-based (presigned POST) upload and of a presigned GET, for the local S3 stand-in:
 * the SigV4 signature with the signer's secret (and its session token), the policy's expiration and every one of
 * its conditions, a presigned URL's expiry, and then whether IAM lets the signer do it (`s3:PutObject`, and
 * `s3:PutObjectTagging` for a tagged upload; `s3:GetObject`). Pure: the clock and the principals are arguments.
 */

/** Who an access key is: the secret it signs with, the session token that must come with it, and what IAM lets it do. */
export interface Principal {
  secretAccessKey: string;
  /** Set for temporary credentials (a role session): S3 refuses a request signed with them that does not carry it. */
  sessionToken?: string;
  /** IAM's verdict on an object action (`s3:PutObject`…) on a bucket (as named in S3) and key. */
  may(action: string, bucket: string, key: string): boolean;
}

/** The principal behind an access key id, or undefined for a key the account does not have. */
export type Principals = (accessKeyId: string) => Principal | undefined;

/** Where the stand-in runs and who may sign for it. */
export interface Signers {
  region: string;
  principals: Principals;
}

/** An S3 error as S3 answers it: the HTTP status, its code and message. */
export interface S3Refusal {
  status: number;
  code: string;
  message: string;
}

const refuse = (status: number, code: string, message: string): S3Refusal => ({ status, code, message });

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** SigV4's signing key for a date (YYYYMMDD), region and service. */
const signingKey = (secret: string, date: string, region: string, service: string) =>
  hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `AKID/20261129/us-east-1/s3/aws4_request`, checked against the account's principals, with the session token that came with it. */
const checkCredential = (
  credential: string,
  token: string | undefined,
  signers: Signers,
): { date: string; principal: Principal } | S3Refusal => {
  const [keyId = '', date, region, service, terminator] = credential.split('/');
  const principal = signers.principals(keyId);
  if (!principal) return refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (!date || region !== signers.region || service !== 's3' || terminator !== 'aws4_request')
    return refuse(400, 'AuthorizationQueryParametersError', `Error parsing the X-Amz-Credential parameter: ${credential}`);
  if (token !== principal.sessionToken) return refuse(403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.');
  return { date, principal };
};

const accessDenied = () => refuse(403, 'AccessDenied', 'Access Denied');

/** X-Amz-Date, `YYYYMMDDTHHMMSSZ`, as a time. */
const amzDate = (value: string): number | undefined => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
};

type Condition = Record<string, string> | [string, string | number, string | number];

/** The form of a POST upload: its fields by lower-cased name (S3 matches names case-insensitively) and the file's size. */
export interface PostForm {
  bucket: string;
  fields: Record<string, string>;
  fileSize: number;
}

const quote = (c: unknown) => JSON.stringify(c);

/**
 * S3's verdict on a POST upload: the signature of the base64 policy, its algorithm and credential, its
 * expiration, and its conditions (`eq`, `starts-with`, exact-match objects, `content-length-range`); every
 * field but the policy, the signature, the file and `x-ignore-*` ones must be named by a condition.
 */
export const checkPostUpload = (form: PostForm, signers: Signers, now: Date): S3Refusal | undefined => {
  const f = form.fields;
  for (const required of ['key', 'policy', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-signature'])
    if (f[required] === undefined) return refuse(400, 'InvalidArgument', `Bucket POST must contain a field named '${required}'.`);
  if (f['x-amz-algorithm'] !== 'AWS4-HMAC-SHA256') return refuse(400, 'InvalidArgument', 'Only AWS4-HMAC-SHA256 is supported.');
  const credential = checkCredential(f['x-amz-credential']!, f['x-amz-security-token'], signers);
  if ('code' in credential) return credential;
  const { principal } = credential;
  const expected = hmac(signingKey(principal.secretAccessKey, credential.date, signers.region, 's3'), f.policy!).toString('hex');
  if (!sameHex(expected, f['x-amz-signature']!.toLowerCase()))
    return refuse(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');

  let policy: { expiration?: string; conditions?: Condition[] };
  try {
    policy = JSON.parse(Buffer.from(f.policy!, 'base64').toString('utf8'));
  } catch {
    return refuse(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  const expiration = Date.parse(policy.expiration ?? '');
  if (Number.isNaN(expiration)) return refuse(400, 'InvalidPolicyDocument', 'Invalid Policy: Policy missing expiration.');
  if (expiration <= now.getTime()) return refuse(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');

  const values: Record<string, string> = { ...f, bucket: form.bucket };
  const covered = new Set<string>();
  for (const c of policy.conditions ?? []) {
    if (Array.isArray(c)) {
      const [op, a, b] = c;
      if (op === 'content-length-range') {
        if (form.fileSize < Number(a))
          return refuse(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
        if (form.fileSize > Number(b)) return refuse(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        continue;
      }
      const name = String(a).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const actual = values[name] ?? '';
      const ok = op === 'eq' ? actual === String(b) : op === 'starts-with' ? actual.startsWith(String(b)) : false;
      if (!ok) return refuse(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ${quote(c)}`);
    } else {
      for (const [rawName, expectedValue] of Object.entries(c)) {
        const name = rawName.toLowerCase();
        covered.add(name);
        if ((values[name] ?? '') !== expectedValue)
          return refuse(
            403,
            'AccessDenied',
            `Invalid according to Policy: Policy Condition failed: ${quote(['eq', `$${rawName}`, expectedValue])}`,
          );
      }
    }
  }
  const exempt = new Set(['policy', 'x-amz-signature', 'file']);
  const stray = Object.keys(f).find((name) => !exempt.has(name) && !name.startsWith('x-ignore-') && !covered.has(name));
  if (stray) return refuse(403, 'AccessDenied', `Invalid according to Policy: Extra input fields: ${stray}`);
  const key = f.key!;
  if (!principal.may('s3:PutObject', form.bucket, key)) return accessDenied();
  if (f.tagging !== undefined && !principal.may('s3:PutObjectTagging', form.bucket, key)) return accessDenied();
  return undefined;
};

/** RFC 3986 encoding, as SigV4's canonical query string uses it. */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A presigned GET as received: its method, raw path (as sent, already escaped), query pairs and headers, and the object it names. */
export interface PresignedRequest {
  method: string;
  path: string;
  bucket: string;
  key: string;
  query: readonly (readonly [string, string])[];
  headers: Record<string, string | undefined>;
}

/** S3's verdict on a presigned GET: the query's SigV4 signature with the signer's secret, its expiry, then the signer's `s3:GetObject`. */
export const checkPresigned = (req: PresignedRequest, signers: Signers, now: Date): S3Refusal | undefined => {
  const q = new Map(req.query);
  const get = (name: string) => q.get(name);
  for (const required of ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'])
    if (get(required) === undefined)
      return refuse(400, 'AuthorizationQueryParametersError', `Query-string authentication requires the ${required} parameter.`);
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256')
    return refuse(400, 'AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  const credential = checkCredential(get('X-Amz-Credential')!, get('X-Amz-Security-Token'), signers);
  if ('code' in credential) return credential;
  const { principal } = credential;
  const signedAt = amzDate(get('X-Amz-Date')!);
  const expires = Number(get('X-Amz-Expires'));
  if (signedAt === undefined || !Number.isInteger(expires) || expires < 1 || expires > 604_800)
    return refuse(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be between 1 and 604800 seconds, with a valid X-Amz-Date.');

  const signedHeaders = get('X-Amz-SignedHeaders')!.split(';');
  const canonicalQuery = req.query
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [req.method, req.path, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${credential.date}/${signers.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', get('X-Amz-Date'), scope, createHash('sha256').update(canonicalRequest).digest('hex')].join(
    '\n',
  );
  const expected = hmac(signingKey(principal.secretAccessKey, credential.date, signers.region, 's3'), stringToSign).toString('hex');
  if (!sameHex(expected, get('X-Amz-Signature')!.toLowerCase()))
    return refuse(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  if (signedAt + expires * 1000 < now.getTime()) return refuse(403, 'AccessDenied', 'Request has expired');
  if (!principal.may('s3:GetObject', req.bucket, req.key)) return accessDenied();
  return undefined;
};

/** An S3 error body. */
export const errorXml = (r: S3Refusal, resource: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${r.code}</Code><Message>${r.message.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</Message><Resource>${resource.replace(/[<>&]/g, '')}</Resource></Error>`;
