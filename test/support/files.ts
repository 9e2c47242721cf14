import { createHash, createHmac } from 'node:crypto';
import { sessionPrincipal } from '../../infra/local/aws-guard';
import { wiring } from '../../functions/wiring';
import type { Client } from './api';

/** A presigned POST as `POST /files` answers it. */
export interface Upload {
  method: 'POST';
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

/** Sends `bytes` as a browser would: a multipart form of every field, then `file` (as S3 requires, last). */
export const postForm = async (upload: Pick<Upload, 'url' | 'fields'>, bytes: Uint8Array, fileType = 'application/octet-stream') => {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([Uint8Array.from(bytes)], { type: fileType }), 'upload.bin');
  const res = await fetch(upload.url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text() };
};

/** Starts an upload of `bytes` as `contentType` and sends it; answers the created file's id and the upload. */
export const sendUpload = async (api: Client, name: string, bytes: Uint8Array, contentType: string) => {
  const created = await api.post('/api/v1/files', { name, contentType, size: bytes.length });
  if (created.status !== 201) throw new Error(`POST /files answered ${created.status}: ${JSON.stringify(created.body)}`);
  const sent = await postForm(created.body.data.upload, bytes);
  if (sent.status !== 204) throw new Error(`the upload answered ${sent.status}: ${sent.body}`);
  return { id: created.body.data.file._id as string, upload: created.body.data.upload as Upload };
};

/** The file once it left `pending` (the verifier runs on S3's notification); usable outside vitest (the cost bench). */
export const settledFile = async (api: Client, id: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/api/v1/files/${id}`);
    if (res.status !== 200) throw new Error(`GET /files/${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.data.file.status !== 'pending') return res.body.data.file;
    if (Date.now() > deadline) throw new Error(`file ${id} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Uploads and waits for the verdict. */
export const readyFile = async (api: Client, name: string, bytes: Uint8Array, contentType: string) => {
  const { id } = await sendUpload(api, name, bytes, contentType);
  const file = await settledFile(api, id);
  if (file.status !== 'ready') throw new Error(`file ${id} was not verified: ${JSON.stringify(file)}`);
  return file;
};

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Signs a policy as S3's SigV4 for POST does (the key derived from the credential's date), with the secret of the
 * function's role session the credential names (or the account's own, `local`).
 */
export const signPolicy = (policyBase64: string, credential: string) => {
  const [keyId = '', date, region, service] = credential.split('/');
  const secret = sessionPrincipal(wiring, keyId)?.secretAccessKey ?? 'local';
  const h = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const key = h(h(h(h(`AWS4${secret}`, date!), region!), service!), 'aws4_request');
  return h(key, policyBase64).toString('hex');
};

/** The upload's fields with its policy rewritten by `change` and signed again with its signer's credentials. */
export const repolicied = (upload: Upload, change: (policy: { expiration: string; conditions: unknown[] }) => void) => {
  const policy = JSON.parse(Buffer.from(upload.fields.Policy!, 'base64').toString('utf8'));
  change(policy);
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
  return {
    ...upload,
    fields: { ...upload.fields, Policy: encoded, 'X-Amz-Signature': signPolicy(encoded, upload.fields['X-Amz-Credential']!) },
  };
};

/** A tiny valid PNG's first bytes (the signature and an IHDR chunk). */
export const PNG_BYTES = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
]);

/** A minimal PDF. */
export const PDF_BYTES = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
