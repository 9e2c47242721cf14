import type { ParleyClient } from './client.js';
import { ParleyError } from './errors.js';
import type { components } from './schema.js';

type FileWithDownload = components['schemas']['FileWithDownload'];

/** What `uploadFile` sends: bytes, a Blob, or a stream of chunks (read whole first: the upload pins its exact size). */
export type UploadBody = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions {
  /** How long to wait for the verification (default 60 s). */
  timeoutMs?: number;
  /** How often to ask for the file's status meanwhile (default 250 ms). */
  pollMs?: number;
  /** The workspace, when not the client's own. */
  workspaceId?: string;
  fetch?: typeof globalThis.fetch;
}

/** The storage refused the bytes (an expired policy, a size or type other than declared): S3's own error code. */
export class ParleyUploadError extends ParleyError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The bytes landed but failed verification: `reason` is the file's `rejectedReason` (e.g. `type_mismatch`). */
export class ParleyFileRejectedError extends ParleyError {
  constructor(
    readonly file: FileWithDownload,
    readonly reason: string,
  ) {
    super(`File ${file._id} was rejected: ${reason}`);
  }
}

/** The most bytes one file may hold (25 MiB): a larger body is refused before anything is sent. */
const MAX_BYTES = 25 * 1024 * 1024;

const toBlob = async (body: UploadBody, contentType: string): Promise<Blob> => {
  if (body instanceof Blob) return body;
  if (body instanceof ArrayBuffer) return new Blob([body], { type: contentType });
  if (body instanceof Uint8Array) return new Blob([Uint8Array.from(body)], { type: contentType });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  // A web ReadableStream is async-iterable in Node 18+ and current browsers.
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) throw new ParleyError(`A file holds at most ${MAX_BYTES} bytes (25 MiB)`);
    chunks.push(Uint8Array.from(chunk));
  }
  return new Blob(chunks, { type: contentType });
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the bytes straight to storage with a presigned POST; storage's refusal is a `ParleyUploadError`. */
export const postToStorage = async (
  upload: { url: string; fields: Record<string, string> },
  blob: Blob,
  name: string,
  fetcher: typeof globalThis.fetch = globalThis.fetch,
): Promise<void> => {
  const form = new FormData();
  for (const [field, value] of Object.entries(upload.fields)) form.append(field, value);
  form.append('file', blob, name);
  const sent = await fetcher(upload.url, { method: 'POST', body: form });
  if (sent.ok) return;
  const text = await sent.text();
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `http_${sent.status}`;
  const message = /<Message>([^<]+)<\/Message>/.exec(text)?.[1] ?? text.slice(0, 200);
  throw new ParleyUploadError(sent.status, code, `Storage refused the upload (${code}): ${message}`);
};

/**
 * Uploads a file in the API's two steps and waits until it can be attached: `POST /files` answers a presigned
 * POST, the bytes go straight to storage with it (never through the API), then the file is read until its
 * verification is done. Resolves with the `ready` file (its `download` URL included); throws a
 * `ParleyFileRejectedError` when verification rejects it, a `ParleyUploadError` when storage refuses the bytes.
 */
export const uploadFile = async (
  parley: ParleyClient,
  name: string,
  body: UploadBody,
  contentType: string,
  options: UploadOptions = {},
): Promise<FileWithDownload> => {
  const blob = await toBlob(body, contentType);
  const workspace = options.workspaceId ? { workspaceId: options.workspaceId } : {};
  const { data } = await parley.post('/files', { body: { name, contentType, size: blob.size }, ...workspace });
  await postToStorage(data.upload, blob, name, options.fetch);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const { data: read } = await parley.get('/files/{id}', { params: { path: { id: data.file._id } }, ...workspace });
    if (read.file.status === 'ready') return read.file;
    if (read.file.status === 'rejected') throw new ParleyFileRejectedError(read.file, read.file.rejectedReason ?? 'rejected');
    if (Date.now() > deadline) throw new ParleyError(`File ${data.file._id} was still pending after ${options.timeoutMs ?? 60_000} ms`);
    await sleep(options.pollMs ?? 250);
  }
};
