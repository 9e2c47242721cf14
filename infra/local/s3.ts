import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { checkPostUpload, checkPresigned, errorXml, type Principals, type S3Refusal, type Signers } from './s3-post-policy';
import { isExpired, parseTaggingHeader, parseTaggingXml, taggingXml, type ExpiryRule, type Tags } from './s3-tagging';

/**
 * The local S3: fauxqs stores the objects, and this gate in front of it does what fauxqs does not. It
 * answers a presigned POST upload (multipart form, policy and signature checked as S3 checks them) with
 * a PutObject, serves a presigned GET only with a valid, unexpired signature (with what S3 would send: the
 * stored or asked-for disposition, never `nosniff`), passes the SDK's own calls through, and tells
 * `onObjectCreated` of every new object, as S3's EventBridge notifications do. It keeps each object's tags (a POST's `tagging` field, PutObject's
 * `x-amz-tagging`, the `?tagging` calls) and runs the buckets' lifecycle rules on a timer, as S3 does once a
 * day. With `dataDir` it also keeps the objects on disk (fauxqs keeps them in memory) and the notifications not
 * yet delivered, which it delivers again at its next start: S3 never loses one.
 */
export interface ObjectCreated {
  bucket: string;
  key: string;
  size: number;
  etag: string;
  reason: 'PostObject' | 'PutObject' | 'CompleteMultipartUpload';
}

export interface S3LocalOptions {
  /** The fauxqs endpoint that stores the objects. */
  storeEndpoint: string;
  buckets: readonly string[];
  /** The region signatures name, and who may sign: the account's own keys and every function's role session. */
  signers: Signers;
  onObjectCreated?: (event: ObjectCreated) => Promise<void>;
  /** The buckets' lifecycle rules that expire tagged objects. */
  lifecycle?: readonly ExpiryRule[];
  dataDir?: string;
  port?: number;
  /** The clock presigned URLs, policies and lifecycle rules are checked against (tests move it). */
  now?: () => Date;
}

export interface S3Local {
  endpoint: string;
  /** Runs the lifecycle rules as of `at` (the timer does it every minute with the clock): answers the `bucket/key`s it expired. */
  expireObjects(at?: Date): Promise<string[]>;
  stop(): Promise<void>;
}

/** What the stand-in keeps of each object beside fauxqs's copy (which keeps no disposition and no tags). */
interface ObjectMeta {
  contentType?: string;
  contentDisposition?: string;
  tags: Tags;
  /** When it was created (ms), which lifecycle rules count from. */
  createdAt: number;
}

const LIFECYCLE_INTERVAL_MS = 60_000;

/** The account's own access key, as an administrator's: IAM lets it do anything. */
export const accountKey =
  (accessKeyId: string, secretAccessKey: string): Principals =>
  (id) =>
    id === accessKeyId ? { secretAccessKey, may: () => true } : undefined;

/** S3 itself refuses a POST upload's body past 5 GB; the files here are ≤ 25 MiB, so the gate stops reading sooner. */
const MAX_POST_BYTES = 64 * 1024 * 1024;

/** fauxqs takes at most 11 MiB in one request: a larger object goes into the store in parts, as S3's own clients send it. */
const PART_BYTES = 8 * 1024 * 1024;

/** Stores `bytes` under `key`: one PutObject, or a multipart upload past PART_BYTES. */
export const putObject = async (store: S3Client, bucket: string, key: string, bytes: Uint8Array, contentType?: string): Promise<void> => {
  if (bytes.length <= PART_BYTES) {
    await store.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
    return;
  }
  const { UploadId } = await store.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }));
  const parts = [];
  for (let start = 0, n = 1; start < bytes.length; start += PART_BYTES, n++) {
    const part = await store.send(
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n, Body: bytes.subarray(start, start + PART_BYTES) }),
    );
    parts.push({ ETag: part.ETag, PartNumber: n });
  }
  await store.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
};

const send = (res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/xml', ...headers });
  res.end(body);
};
const sendRefusal = (res: ServerResponse, r: S3Refusal, resource: string) => send(res, r.status, errorXml(r, resource));

const readBody = async (req: IncomingMessage, limit: number): Promise<Buffer | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

export const startS3Local = async (opts: S3LocalOptions): Promise<S3Local> => {
  const now = opts.now ?? (() => new Date());
  // fauxqs checks no signature: the store is reached with any key.
  const store = new S3Client({
    endpoint: opts.storeEndpoint,
    region: opts.signers.region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'parley-s3-stand-in', secretAccessKey: 'unused' },
  });
  for (const bucket of opts.buckets) await store.send(new CreateBucketCommand({ Bucket: bucket }));
  const objectsDir = opts.dataDir && join(opts.dataDir, 'objects');
  const pendingDir = opts.dataDir && join(opts.dataDir, 'notifications');
  const diskName = (bucket: string, key: string) => encodeURIComponent(`${bucket}/${key}`);

  /** Every object's tags and creation time, by `bucket/key`. */
  const objects = new Map<string, ObjectMeta>();
  /** What a multipart upload was created with (its tags, its disposition), by upload id, until it completes. */
  const uploads = new Map<string, { tags: Tags; contentDisposition?: string }>();
  const remember = async (bucket: string, key: string, meta: ObjectMeta) => {
    objects.set(`${bucket}/${key}`, meta);
    if (objectsDir) await writeFile(join(objectsDir, `${diskName(bucket, key)}.meta`), JSON.stringify(meta));
  };
  const forget = async (bucket: string, key: string) => {
    objects.delete(`${bucket}/${key}`);
    if (objectsDir)
      await Promise.all([
        rm(join(objectsDir, diskName(bucket, key)), { force: true }),
        rm(join(objectsDir, `${diskName(bucket, key)}.meta`), { force: true }),
      ]);
  };

  // Objects kept from an earlier run go back into the store before anything is served.
  if (objectsDir) {
    await mkdir(objectsDir, { recursive: true });
    for (const name of await readdir(objectsDir)) {
      if (name.endsWith('.meta')) continue;
      const [bucket = '', ...rest] = decodeURIComponent(name).split('/');
      const key = rest.join('/');
      const meta = JSON.parse(await readFile(join(objectsDir, `${name}.meta`), 'utf8').catch(() => '{}')) as Partial<ObjectMeta>;
      await putObject(store, bucket, key, await readFile(join(objectsDir, name)), meta.contentType);
      objects.set(`${bucket}/${key}`, { ...meta, tags: meta.tags ?? {}, createdAt: meta.createdAt ?? Date.now() });
    }
  }

  /** Kept on disk before the upload is answered (S3 never loses a notification it owes), forgotten once delivered. */
  const journal = async (event: ObjectCreated): Promise<string | undefined> => {
    const file = pendingDir && join(pendingDir, `${randomUUID()}.json`);
    if (file) await writeFile(file, JSON.stringify(event));
    return file;
  };
  const deliver = async (event: ObjectCreated, file: string | undefined) => {
    await opts.onObjectCreated?.(event);
    if (file) await rm(file, { force: true });
  };

  const stored = async (
    bucket: string,
    key: string,
    reason: ObjectCreated['reason'],
    as: { tags: Tags; contentDisposition?: string; contentType?: string },
    body?: Buffer,
  ) => {
    const head = await store.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    if (objectsDir) {
      const bytes =
        body ?? Buffer.from(await (await store.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray());
      await writeFile(join(objectsDir, diskName(bucket, key)), bytes);
    }
    await remember(bucket, key, {
      contentType: as.contentType ?? head.ContentType,
      contentDisposition: as.contentDisposition,
      tags: as.tags,
      createdAt: now().getTime(),
    });
    const event: ObjectCreated = { bucket, key, size: head.ContentLength ?? 0, etag: (head.ETag ?? '').replaceAll('"', ''), reason };
    const file = await journal(event);
    // S3 answers the upload first; its notification follows on its own.
    void deliver(event, file).catch((error: unknown) =>
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'S3 notification failed', key, error: String(error) })}\n`),
    );
  };

  const postUpload = async (req: IncomingMessage, res: ServerResponse, bucket: string) => {
    const body = await readBody(req, MAX_POST_BYTES);
    if (!body)
      return sendRefusal(
        res,
        { status: 400, code: 'EntityTooLarge', message: 'Your proposed upload exceeds the maximum allowed size' },
        `/${bucket}`,
      );
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return sendRefusal(
        res,
        { status: 400, code: 'MalformedPOSTRequest', message: 'The body of your POST request is not well-formed multipart/form-data.' },
        `/${bucket}`,
      );
    }
    // S3 reads the fields up to `file` and ignores any after it.
    const fields: Record<string, string> = {};
    let file: File | undefined;
    for (const [name, value] of form) {
      if (name.toLowerCase() === 'file') {
        file = typeof value === 'string' ? new File([value], 'file') : value;
        break;
      }
      if (typeof value === 'string') fields[name.toLowerCase()] = value;
    }
    if (!file)
      return sendRefusal(
        res,
        { status: 400, code: 'InvalidArgument', message: 'POST requires exactly one file upload per request.' },
        `/${bucket}`,
      );
    const refusal = checkPostUpload({ bucket, fields, fileSize: file.size }, opts.signers, now());
    if (refusal) return sendRefusal(res, refusal, `/${bucket}`);
    const parsed = fields.tagging === undefined ? { tags: {} } : parseTaggingXml(fields.tagging);
    if ('refusal' in parsed) return sendRefusal(res, parsed.refusal, `/${bucket}`);
    const key = fields.key!;
    const bytes = Buffer.from(await file.arrayBuffer());
    await putObject(store, bucket, key, bytes, fields['content-type']);
    await stored(
      bucket,
      key,
      'PostObject',
      { tags: parsed.tags, contentType: fields['content-type'], contentDisposition: fields['content-disposition'] },
      bytes,
    );
    send(res, 204, '', { location: `/${bucket}/${encodeURIComponent(key)}` });
  };

  /** A presigned GET, served from the store only as a download: never inline, never sniffed. */
  const presignedGet = async (req: IncomingMessage, res: ServerResponse, url: URL, bucket: string, key: string) => {
    const rawPath = (req.url ?? '/').split('?')[0]!;
    const refusal = checkPresigned(
      {
        method: req.method ?? 'GET',
        path: rawPath,
        bucket,
        key,
        query: [...url.searchParams.entries()],
        headers: req.headers as Record<string, string>,
      },
      opts.signers,
      now(),
    );
    if (refusal) return sendRefusal(res, refusal, rawPath);
    try {
      const out = await store.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      // As S3 answers: the stored (or asked-for) disposition, if any, and no header S3 cannot send (the CDN adds those).
      const disposition = url.searchParams.get('response-content-disposition') ?? objects.get(`${bucket}/${key}`)?.contentDisposition;
      res.writeHead(200, {
        'content-type': url.searchParams.get('response-content-type') ?? out.ContentType ?? 'application/octet-stream',
        'content-length': String(out.ContentLength ?? ''),
        ...(disposition ? { 'content-disposition': disposition } : {}),
        etag: out.ETag ?? '',
      });
      if (req.method === 'HEAD') return res.end();
      (out.Body as Readable).pipe(res);
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey')
        return sendRefusal(res, { status: 404, code: 'NoSuchKey', message: 'The specified key does not exist.' }, rawPath);
      throw error;
    }
  };

  /** The object's tags and creation time; one the store has but the stand-in never saw (none here) has none. */
  const metaOf = async (bucket: string, key: string): Promise<ObjectMeta | undefined> => {
    const known = objects.get(`${bucket}/${key}`);
    if (known) return known;
    const head = await store.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).catch((error: { name?: string }) => {
      if (error.name === 'NotFound' || error.name === 'NoSuchKey') return undefined;
      throw error;
    });
    return head && { contentType: head.ContentType, tags: {}, createdAt: head.LastModified?.getTime() ?? now().getTime() };
  };

  /** GetObjectTagging, PutObjectTagging and DeleteObjectTagging (`?tagging` on a key), which fauxqs does not have. */
  const tagging = async (req: IncomingMessage, res: ServerResponse, bucket: string, key: string) => {
    const resource = `/${bucket}/${key}`;
    const meta = await metaOf(bucket, key);
    if (!meta) return sendRefusal(res, { status: 404, code: 'NoSuchKey', message: 'The specified key does not exist.' }, resource);
    if (req.method === 'GET') return send(res, 200, taggingXml(meta.tags));
    if (req.method === 'DELETE') {
      await remember(bucket, key, { ...meta, tags: {} });
      return send(res, 204);
    }
    if (req.method !== 'PUT')
      return sendRefusal(res, { status: 405, code: 'MethodNotAllowed', message: 'The specified method is not allowed' }, resource);
    const parsed = parseTaggingXml((await readBody(req, 64 * 1024))?.toString('utf8') ?? '');
    if ('refusal' in parsed) return sendRefusal(res, parsed.refusal, resource);
    await remember(bucket, key, { ...meta, tags: parsed.tags });
    send(res, 200);
  };

  /**
   * The SDK's own calls go to the store as sent; a stored object is announced (with its `x-amz-tagging` and
   * disposition: a multipart upload's are those it was created with, announced once it completes), a deleted
   * one forgotten, and a read answers the disposition the object was stored with.
   */
  const passThrough = async (req: IncomingMessage, res: ServerResponse, bucket: string, key: string, url: URL) => {
    const putsObject = Boolean(key) && req.method === 'PUT' && !url.searchParams.has('uploadId');
    const createsUpload = Boolean(key) && req.method === 'POST' && url.searchParams.has('uploads');
    const completedUpload = key && req.method === 'POST' ? url.searchParams.get('uploadId') : null;
    // AbortMultipartUpload is a DELETE of the key with its upload id: it ends the upload, not the object.
    const abortedUpload = key && req.method === 'DELETE' ? url.searchParams.get('uploadId') : null;
    const header = req.headers['x-amz-tagging'];
    const parsed = (putsObject || createsUpload) && typeof header === 'string' ? parseTaggingHeader(header) : { tags: {} };
    if ('refusal' in parsed) return sendRefusal(res, parsed.refusal, `/${bucket}/${key}`);
    const disposition = req.headers['content-disposition'];
    const as = { tags: parsed.tags, contentDisposition: typeof disposition === 'string' ? disposition : undefined };
    const reads = Boolean(key) && (req.method === 'GET' || req.method === 'HEAD');
    const storedDisposition = reads ? objects.get(`${bucket}/${key}`)?.contentDisposition : undefined;
    await new Promise<void>((resolve, reject) => {
      const target = new URL(req.url ?? '/', opts.storeEndpoint);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        const found = (answer.statusCode ?? 500) < 300;
        res.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          ...(found && storedDisposition ? { 'content-disposition': storedDisposition } : {}),
        });
        // A write's answer (a few bytes of XML) is held until what it stored is remembered: a read right after
        // it sees the object's tags and disposition, as on S3. A read streams.
        const writes = putsObject || createsUpload || completedUpload !== null;
        const answered: Buffer[] = [];
        if (writes) answer.on('data', (chunk: Buffer) => answered.push(chunk));
        else answer.pipe(res);
        answer.on('end', () => {
          const ok = (answer.statusCode ?? 500) < 300;
          const body = Buffer.concat(answered);
          const uploadId = createsUpload ? /<UploadId>([^<]+)<\/UploadId>/.exec(body.toString('utf8'))?.[1] : undefined;
          if (ok && uploadId) uploads.set(uploadId, as);
          const completed = ok && completedUpload ? (uploads.get(completedUpload) ?? { tags: {} }) : undefined;
          const ended = completedUpload ?? abortedUpload;
          if (ok && ended) uploads.delete(ended);
          const after = !ok
            ? Promise.resolve()
            : putsObject
              ? stored(bucket, key, 'PutObject', as)
              : completed
                ? stored(bucket, key, 'CompleteMultipartUpload', completed)
                : key && req.method === 'DELETE' && !abortedUpload
                  ? forget(bucket, key)
                  : Promise.resolve();
          after.finally(() => writes && res.end(body)).then(() => resolve(), reject);
        });
      });
      upstream.on('error', reject);
      req.pipe(upstream);
    });
  };

  /** Deletes every object a lifecycle rule has expired by `at`, as S3's daily lifecycle run does. */
  const expireObjects = async (at = now()): Promise<string[]> => {
    const expired = [...objects].filter(([id, meta]) => {
      const bucket = id.slice(0, id.indexOf('/'));
      const object = { bucket, key: id.slice(bucket.length + 1), tags: meta.tags, createdAt: meta.createdAt };
      return (opts.lifecycle ?? []).some((rule) => isExpired(rule, object, at.getTime()));
    });
    for (const [id] of expired) {
      const bucket = id.slice(0, id.indexOf('/'));
      const key = id.slice(bucket.length + 1);
      await store.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      await forget(bucket, key);
    }
    return expired.map(([id]) => id);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const handled =
      req.method === 'POST' && !key && (req.headers['content-type'] ?? '').startsWith('multipart/form-data')
        ? postUpload(req, res, bucket)
        : (req.method === 'GET' || req.method === 'HEAD') && url.searchParams.has('X-Amz-Signature')
          ? presignedGet(req, res, url, bucket, key)
          : key && url.searchParams.has('tagging')
            ? tagging(req, res, bucket, key)
            : passThrough(req, res, bucket, key, url);
    handled.catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, errorXml({ status: 500, code: 'InternalError', message: String(error) }, url.pathname));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  // Notifications a crash kept from their rules are delivered now (S3's are at least once).
  if (pendingDir) {
    await mkdir(pendingDir, { recursive: true });
    for (const name of await readdir(pendingDir)) {
      const event = JSON.parse(await readFile(join(pendingDir, name), 'utf8')) as ObjectCreated;
      await deliver(event, join(pendingDir, name));
    }
  }

  const timer = setInterval(() => {
    expireObjects().catch((error: unknown) =>
      process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'S3 lifecycle run failed', error: String(error) })}\n`),
    );
  }, LIFECYCLE_INTERVAL_MS);
  timer.unref();

  return {
    endpoint: `http://127.0.0.1:${port}`,
    expireObjects,
    stop: async () => {
      clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.destroy();
    },
  };
};
