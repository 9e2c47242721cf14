import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { config } from '../config';
import { clientPerLane, onFirstUse, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

/**
 * The S3 SDK and the files bucket's client, loaded at the first call: the functions that touch the bucket
 * (a file's routes, the message routes that carry attachments, imports and exports) answer most requests
 * without it, so their cold start does not pay for it. Locally the client talks path-style to the S3
 * stand-in; on AWS to S3 itself.
 */
const loaded = onFirstUse(async () => {
  const sdk = await import('@aws-sdk/client-s3');
  const client = clientPerLane((requestHandler) => {
    const { AWS_REGION, S3_ENDPOINT } = config();
    return tracedClient(
      withPlugins(new sdk.S3Client({ region: AWS_REGION, endpoint: S3_ENDPOINT, forcePathStyle: Boolean(S3_ENDPOINT), requestHandler })),
    );
  });
  return { sdk, client };
});

/** The files bucket's client. */
export const s3 = async (): Promise<S3Client> => (await loaded()).client();

const bucket = () => config().FILES_BUCKET;

export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

/** One object tag. */
interface Tag {
  key: string;
  value: string;
}

const xmlText = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A POST upload's `tagging` field: S3's XML tag set. */
const taggingXml = (tag: Tag) =>
  `<Tagging><TagSet><Tag><Key>${xmlText(tag.key)}</Key><Value>${xmlText(tag.value)}</Value></Tag></TagSet></Tagging>`;

/** A PutObject's `x-amz-tagging`: the tag as a URL query. */
const taggingHeader = (tag: Tag) => `${encodeURIComponent(tag.key)}=${encodeURIComponent(tag.value)}`;

/** What an object is stored with: the headers S3 serves it with, and its tag. */
export interface StoredAs {
  contentType: string;
  contentDisposition: string;
  tag: Tag;
}

/**
 * A presigned POST that accepts exactly one object: this key, exactly `size` bytes (or between the two sizes
 * of a range), stored with this content type, disposition and tag, until `expiresSeconds` from now. S3
 * refuses anything else with 403 (or 400 for the size). Every field is also a condition of the policy, so
 * none can be changed or left off.
 */
export const presignUpload = async (
  key: string,
  size: number | readonly [min: number, max: number],
  as: StoredAs,
  expiresSeconds: number,
): Promise<PresignedPost> => {
  const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
  return createPresignedPost(await s3(), {
    Bucket: bucket(),
    Key: key,
    Conditions: [
      ['eq', '$Content-Type', as.contentType],
      typeof size === 'number' ? ['content-length-range', size, size] : ['content-length-range', size[0], size[1]],
    ],
    Fields: { 'Content-Type': as.contentType, 'Content-Disposition': as.contentDisposition, tagging: taggingXml(as.tag) },
    Expires: expiresSeconds,
  });
};

/** The object's first `bytes` bytes (a ranged GET) and its full size, or undefined when there is no such object. */
export const readHead = async (key: string, bytes: number): Promise<{ sample: Uint8Array; size: number } | undefined> => {
  const { sdk, client } = await loaded();
  try {
    const out = await client().send(new sdk.GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${bytes - 1}` }));
    const sample = await out.Body!.transformToByteArray();
    const total = /\/(\d+)$/.exec(out.ContentRange ?? '')?.[1];
    return { sample, size: total ? Number(total) : (out.ContentLength ?? sample.length) };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

/** The whole object as a stream (the email sender's MIME parts). */
export const readObject = async (key: string): Promise<Readable> => {
  const { sdk, client } = await loaded();
  const out = await client().send(new sdk.GetObjectCommand({ Bucket: bucket(), Key: key }));
  return out.Body as Readable;
};

/** The object as a stream with the headers it is served with, or undefined when there is no such object. */
export const openObject = async (key: string): Promise<{ body: Readable; contentType: string; contentDisposition: string } | undefined> => {
  const { sdk, client } = await loaded();
  try {
    const out = await client().send(new sdk.GetObjectCommand({ Bucket: bucket(), Key: key }));
    return { body: out.Body as Readable, contentType: out.ContentType ?? '', contentDisposition: out.ContentDisposition ?? '' };
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

/** The keys of the objects under `prefix`, page by page (S3's ListObjectsV2: 1,000 keys a page). */
export async function* listKeys(prefix: string): AsyncGenerator<string> {
  const { sdk, client } = await loaded();
  let ContinuationToken: string | undefined;
  do {
    const page = await client().send(new sdk.ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, ContinuationToken }));
    for (const { Key } of page.Contents ?? []) if (Key) yield Key;
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
}

export const writeObject = async (key: string, body: Uint8Array, as: StoredAs): Promise<void> => {
  const { sdk, client } = await loaded();
  const Tagging = taggingHeader(as.tag);
  await client().send(
    new sdk.PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: body,
      ContentType: as.contentType,
      ContentDisposition: as.contentDisposition,
      Tagging,
    }),
  );
};

/** Removes the object's tags; an object that is gone has nothing to untag. */
export const untagObject = async (key: string): Promise<void> => {
  const { sdk, client } = await loaded();
  try {
    await client().send(new sdk.DeleteObjectTaggingCommand({ Bucket: bucket(), Key: key }));
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
  }
};

/** Deletes the object; deleting one that is not there succeeds, as in S3. */
export const deleteObject = async (key: string): Promise<void> => {
  const { sdk, client } = await loaded();
  await client().send(new sdk.DeleteObjectCommand({ Bucket: bucket(), Key: key }));
};

/** S3's smallest part but the last is 5 MiB; parts of 8 MiB keep a writer's memory at one part. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes an object piece by piece without holding it whole: the pieces are gathered into 8 MiB parts of a
 * multipart upload (one PutObject when the object is smaller). `close` makes the object appear, whole; an
 * upload never closed leaves no object (the bucket's lifecycle rule aborts it).
 */
export const objectWriter = (key: string, as: { contentType: string; contentDisposition: string; tag?: Tag }) => {
  const stored = {
    ContentType: as.contentType,
    ContentDisposition: as.contentDisposition,
    ...(as.tag ? { Tagging: taggingHeader(as.tag) } : {}),
  };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let uploadId: string | undefined;
  const parts: { ETag?: string; PartNumber: number }[] = [];
  const sendPart = async () => {
    const { sdk, client } = await loaded();
    const body = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    uploadId ??= (await client().send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ...stored }))).UploadId;
    const PartNumber = parts.length + 1;
    const { ETag } = await client().send(
      new sdk.UploadPartCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, PartNumber, Body: body }),
    );
    parts.push({ ETag, PartNumber });
  };
  return {
    write: async (piece: string): Promise<void> => {
      const bytes = Buffer.from(piece, 'utf8');
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= PART_BYTES) await sendPart();
    },
    close: async (): Promise<void> => {
      const { sdk, client } = await loaded();
      if (!uploadId) {
        await client().send(new sdk.PutObjectCommand({ Bucket: bucket(), Key: key, Body: Buffer.concat(pending), ...stored }));
        return;
      }
      if (pendingBytes > 0) await sendPart();
      await client().send(
        new sdk.CompleteMultipartUploadCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    },
  };
};
