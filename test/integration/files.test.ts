import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/api';
import { PDF_BYTES, PNG_BYTES, postForm, readyFile, repolicied, settledFile, sha256, signPolicy, sendUpload } from '../support/files';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { startS3Local, type ObjectCreated } from '../../infra/local/s3';
import { runAs, sessionPrincipal } from '../../infra/local/aws-guard';
import { invoke, nameOf, onInvoke } from '../../infra/local/lambda';
import { wiring } from '../../functions/wiring';
import { FILES_BUCKET } from '../../functions/wiring/files';
import type { Access } from '../../functions/wiring/types';
import { objectId } from '../../shared/ids';
import { presignUpload } from '../../shared/aws/s3';
import { signedDownloadUrl } from '../../shared/aws/downloads';
import { deleteFileRecord } from '../../shared/data/files';
import { messageKey } from '../../shared/data/messages';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { testTenant } from '../../shared/domain/auth/tenant';
import { PENDING_OBJECT_TAG } from '../../shared/domain/files/file';
import type { AwsCall } from '../support/fixtures/aws-calls';
import { createParleyClient, ParleyFileRejectedError, uploadFile } from '../../packages/client/src/index';
import { uploadPath } from '../../packages/cli/files';
import type { Session } from '../../packages/cli/session';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { direct } from '../../shared/data/unit';

const env = useTestStack();
const FILES = '/api/v1/files';
const CONV = '/api/v1/inbox/conversations';

/** A client of the S3 stand-in with the local credentials, outside any function (no grant applies). */
let s3: S3Client | undefined;
const bucketClient = () =>
  (s3 ??= new S3Client({
    endpoint: env.stack.s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }));
afterAll(() => s3?.destroy());
const BUCKET = () => process.env.FILES_BUCKET!;
const objectExists = async (key: string) =>
  bucketClient()
    .send(new HeadObjectCommand({ Bucket: BUCKET(), Key: key }))
    .then(
      () => true,
      (error: { name?: string }) => {
        if (error.name === 'NotFound' || error.name === 'NoSuchKey') return false;
        throw error;
      },
    );

/** The object's tags, as GetObjectTagging answers them. */
const tagsOf = async (key: string) =>
  Object.fromEntries(
    ((await bucketClient().send(new GetObjectTaggingCommand({ Bucket: BUCKET(), Key: key }))).TagSet ?? []).map((t) => [t.Key, t.Value]),
  );

const conversationOf = async (api: Awaited<ReturnType<typeof env.tenant>>['api']) => {
  const customer = (await api.post('/api/v1/contacts/customers', { name: 'Maya' })).body.data.customer;
  return (await api.post(CONV, { customerId: customer._id })).body.data.conversation;
};

describe('an upload, end to end', () => {
  it('a PDF goes straight to the bucket, becomes ready once, and downloads as the same bytes, never inline', async () => {
    const t = await env.tenant();
    const created = await t.api.post(FILES, { name: 'invoice.pdf', contentType: 'application/pdf', size: PDF_BYTES.length });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { file, upload } = created.body.data;
    expect(file).toMatchObject({ name: 'invoice.pdf', contentType: 'application/pdf', size: PDF_BYTES.length, status: 'pending' });
    expect(upload).toMatchObject({
      method: 'POST',
      fields: { key: `${t.workspaceId}~test/${file._id}`, 'Content-Type': 'application/pdf' },
    });
    const expiresIn = Date.parse(upload.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);

    expect((await postForm(upload, PDF_BYTES)).status).toBe(204);
    const ready = await settledFile(t.api, file._id);
    expect(ready).toMatchObject({ status: 'ready', rejectedReason: null, conversationId: null });
    const { download } = ready;
    expect(Date.parse(download.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const res = await fetch(download.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(PDF_BYTES));

    const events = await outboxEvents(t.workspaceId, 'inbox.file.ready');
    expect(events.map((e) => (e.data.file as { _id: string })._id)).toEqual([file._id]);
    const listed = await t.api.get(FILES);
    expect(listed.body.data.files.map((f: { _id: string }) => f._id)).toEqual([file._id]);
    expect(listed.body.data.pagination.total).toBe(1);
  });

  it('an HTML file downloads as opaque bytes under an attachment disposition, with a sanitised name', async () => {
    const t = await env.tenant();
    const html = new TextEncoder().encode('<script>alert(1)</script>');
    const file = await readyFile(t.api, '../evil\r\nX-Injected: 1.html', html, 'text/html');
    expect(file.name).toBe('evil__X-Injected: 1.html');
    const res = await fetch(file.download.url);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="evil__X-Injected: 1.html"/);
    expect(res.headers.get('x-injected')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a size over 25 MiB, a malformed type and an empty name, field by field', async () => {
    const t = await env.tenant();
    const res = await t.api.post(FILES, { name: '/', contentType: 'pdf', size: 25 * 1024 * 1024 + 1 });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual(['contentType', 'name', 'size']);
  });
});

describe('the S3 stand-in refuses what S3 refuses for a presigned POST', () => {
  const pending = async () => {
    const t = await env.tenant();
    const created = await t.api.post(FILES, { name: 'a.txt', contentType: 'text/plain', size: 5 });
    return { t, upload: created.body.data.upload, id: created.body.data.file._id as string };
  };
  const hello = new TextEncoder().encode('hello');

  it('an expired policy (validly signed) is 403 AccessDenied', async () => {
    const { upload } = await pending();
    const expired = repolicied(upload, (p) => {
      p.expiration = new Date(Date.now() - 1000).toISOString();
    });
    const res = await postForm(expired, hello);
    expect(res.status).toBe(403);
    expect(res.body).toContain('<Code>AccessDenied</Code>');
    expect(res.body).toContain('Policy expired');
  });

  it('more or fewer bytes than content-length-range allows are EntityTooLarge / EntityTooSmall', async () => {
    const { upload } = await pending();
    const big = await postForm(upload, new TextEncoder().encode('hello!'));
    expect(big.status).toBe(400);
    expect(big.body).toContain('<Code>EntityTooLarge</Code>');
    const small = await postForm(upload, new TextEncoder().encode('hell'));
    expect(small.status).toBe(400);
    expect(small.body).toContain('<Code>EntityTooSmall</Code>');
  });

  it('a content type or a key other than the policy pins is 403, and nothing lands', async () => {
    const { t, upload, id } = await pending();
    const otherType = await postForm({ ...upload, fields: { ...upload.fields, 'Content-Type': 'text/html' } }, hello);
    expect(otherType.status).toBe(403);
    expect(otherType.body).toContain(
      'Policy Condition failed: [&#34;eq&#34;,&#34;$Content-Type&#34;,&#34;text/plain&#34;]'.replaceAll('&#34;', '"'),
    );
    const otherKey = await postForm({ ...upload, fields: { ...upload.fields, key: `${t.workspaceId}/${id}` } }, hello);
    expect(otherKey.status).toBe(403);
    expect(otherKey.body).toContain('$key');
    expect(await objectExists(`${t.workspaceId}/${id}`)).toBe(false);
    expect(await objectExists(upload.fields.key)).toBe(false);
  });

  it('a bad signature, a field the policy does not name, or another access key is refused', async () => {
    const { upload } = await pending();
    const signature = upload.fields['X-Amz-Signature'];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const bad = await postForm({ ...upload, fields: { ...upload.fields, 'X-Amz-Signature': flipped } }, hello);
    expect(bad.status).toBe(403);
    expect(bad.body).toContain('<Code>SignatureDoesNotMatch</Code>');
    const stray = await postForm({ ...upload, fields: { ...upload.fields, 'x-amz-meta-owner': 'me' } }, hello);
    expect(stray.status).toBe(403);
    expect(stray.body).toContain('Extra input fields: x-amz-meta-owner');
    const credential = upload.fields['X-Amz-Credential'].replace(/^[^/]+/, 'someone-else');
    const otherKey = await postForm(
      {
        ...upload,
        fields: { ...upload.fields, 'X-Amz-Credential': credential, 'X-Amz-Signature': signPolicy(upload.fields.Policy, credential) },
      },
      hello,
    );
    expect(otherKey.status).toBe(403);
    expect(otherKey.body).toContain('<Code>InvalidAccessKeyId</Code>');
  });

  it('the untouched upload still goes through after every refusal', async () => {
    const { t, upload, id } = await pending();
    await postForm({ ...upload, fields: { ...upload.fields, 'Content-Type': 'text/html' } }, hello);
    expect((await postForm(upload, hello)).status).toBe(204);
    expect((await settledFile(t.api, id)).status).toBe('ready');
  });
});

describe('the S3 stand-in asks IAM about the signer, as S3 does', () => {
  /** A function of the test's own, granted `access`, that signs what `call` names. */
  const signedBy = (access: Access, call: AwsCall) =>
    invoke<string>({ handler: 'test/support/fixtures/aws-calls.ts', access }, { kind: 'http' }, call);
  const hello = new TextEncoder().encode('hello');
  const keyOf = (t: { workspaceId: string }) => `${t.workspaceId}~test/${objectId()}`;

  it('an upload signed by a function without s3:PutObject on the bucket is 403 AccessDenied, and nothing lands', async () => {
    const t = await env.tenant();
    const key = keyOf(t);
    for (const access of [{ table: 'write' }, { table: 'write', buckets: { [FILES_BUCKET]: ['read', 'delete'] } }] as Access[]) {
      const upload = JSON.parse(await signedBy(access, { call: 'presign-upload', key, size: 5 }));
      const refused = await postForm(upload, hello);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('<Code>AccessDenied</Code>');
    }
    expect(await objectExists(key)).toBe(false);
    const granted = JSON.parse(
      await signedBy({ table: 'write', buckets: { [FILES_BUCKET]: ['write'] } }, { call: 'presign-upload', key, size: 5 }),
    );
    expect((await postForm(granted, hello)).status).toBe(204);
    expect(await objectExists(key)).toBe(true);
  });

  it('a role session’s signature needs its session token: without it, or with another, the upload is 403 InvalidToken', async () => {
    const t = await env.tenant();
    const { upload } = (await t.api.post(FILES, { name: 'a.txt', contentType: 'text/plain', size: 5 })).body.data;
    const { 'X-Amz-Security-Token': token, ...withoutToken } = upload.fields as Record<string, string>;
    expect(token).toBeDefined();
    const missing = await postForm({ ...upload, fields: withoutToken }, hello);
    expect(missing.status).toBe(403);
    expect(missing.body).toContain('<Code>InvalidToken</Code>');
    const other = await postForm(
      { ...upload, fields: { ...upload.fields, 'X-Amz-Security-Token': Buffer.from('another').toString('base64') } },
      hello,
    );
    expect(other.status).toBe(403);
    expect(other.body).toContain('<Code>InvalidToken</Code>');
    expect((await postForm(upload, hello)).status).toBe(204);
  });

  it('a tagged upload needs s3:PutObjectTagging as well: signed by a function with s3:PutObject alone, it is 403 AccessDenied', async () => {
    const key = keyOf(await env.tenant());
    const grants = [{ actions: ['s3:PutObject'], resource: { bucket: FILES_BUCKET }, objectKeyPrefix: '' }];
    const upload = await runAs({ name: 'put-without-tagging', kind: 'http', grants }, () =>
      presignUpload(key, 5, { contentType: 'text/plain', contentDisposition: 'attachment', tag: PENDING_OBJECT_TAG }, 60),
    );
    expect(upload.fields.tagging).toBe('<Tagging><TagSet><Tag><Key>parley-state</Key><Value>pending</Value></Tag></TagSet></Tagging>');
    const refused = await postForm(upload, hello);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('<Code>AccessDenied</Code>');
    expect(await objectExists(key)).toBe(false);
  });

  it('an S3 call the function makes itself is refused before it leaves, as IAM refuses it: AccessDenied', async () => {
    const t = await env.tenant();
    const { upload } = await sendUpload(t.api, 'kept.txt', new TextEncoder().encode('kept'), 'text/plain');
    const key = upload.fields.key!;
    await expect(signedBy({ table: 'write', buckets: { [FILES_BUCKET]: ['read'] } }, { call: 'delete-object', key })).rejects.toMatchObject(
      {
        name: 'AccessDenied',
        message: expect.stringContaining(`is not authorized to perform: s3:DeleteObject on resource: arn:aws:s3:::${BUCKET()}/${key}`),
      },
    );
    expect(await objectExists(key)).toBe(true);
    await signedBy({ table: 'write', buckets: { [FILES_BUCKET]: ['delete'] } }, { call: 'delete-object', key });
    expect(await objectExists(key)).toBe(false);
  });

  it('a listing is s3:ListBucket on the bucket, allowed only under the granted prefix', async () => {
    const lister: Access = { table: 'read', buckets: { [FILES_BUCKET]: ['list:bulk/'] } };
    for (const [access, prefix] of [
      [{ table: 'read', buckets: { [FILES_BUCKET]: ['read', 'write', 'delete'] } }, 'bulk/'],
      [lister, ''],
      [lister, 'bul'],
    ] as const) {
      await expect(signedBy(access as Access, { call: 'list-keys', prefix })).rejects.toMatchObject({
        name: 'AccessDenied',
        message: expect.stringContaining(`is not authorized to perform: s3:ListBucket on resource: arn:aws:s3:::${BUCKET()}`),
      });
    }
    expect(JSON.parse(await signedBy(lister, { call: 'list-keys', prefix: `bulk/exports/${objectId()}/` }))).toEqual([]);
  });

  it('a download signed by a function without s3:GetObject is 403 AccessDenied; with it, 200', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'notes.txt', new TextEncoder().encode('some notes'), 'text/plain');
    const key = `${t.workspaceId}~test/${file._id}`;
    const refused = await fetch(
      await signedBy({ table: 'read', buckets: { [FILES_BUCKET]: ['write'] } }, { call: 'presign-download', key }),
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('<Code>AccessDenied</Code>');
    const granted = await fetch(
      await signedBy({ table: 'read', buckets: { [FILES_BUCKET]: ['read'] } }, { call: 'presign-download', key }),
    );
    expect(granted.status).toBe(200);
    expect(await granted.text()).toBe('some notes');
  });
});

describe('presigned GETs of the S3 stand-in', () => {
  it('a URL past its expiry is 403, a tampered one SignatureDoesNotMatch, a fresh one 200 with the object’s own disposition', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'notes.txt', new TextEncoder().encode('some notes'), 'text/plain');
    const key = `${t.workspaceId}~test/${file._id}`;
    const presign = (signingDate: Date) =>
      getSignedUrl(bucketClient(), new GetObjectCommand({ Bucket: BUCKET(), Key: key }), { expiresIn: 300, signingDate });
    const expired = await fetch(await presign(new Date(Date.now() - 301_000)));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
    const tampered = await fetch((await presign(new Date())).replace('X-Amz-Expires=300', 'X-Amz-Expires=3000'));
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const fresh = await fetch(await presign(new Date()));
    expect(fresh.status).toBe(200);
    // The upload policy pinned it: S3 serves every object as an attachment under its name, whoever reads it.
    expect(fresh.headers.get('content-disposition')).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(await fresh.text()).toBe('some notes');
  });
});

describe('downloads through the CDN (CloudFront locally stood in)', () => {
  const download = async (name: string, bytes: Uint8Array, type: string) => {
    const t = await env.tenant();
    const file = await readyFile(t.api, name, bytes, type);
    return { t, file, key: `${t.workspaceId}~test/${file._id}`, url: new URL(file.download.url) };
  };

  it('serves a signed URL with the response headers policy: nosniff, a sandbox, no framing, no referrer, no caching', async () => {
    const { url } = await download('report.pdf', PDF_BYTES, 'application/pdf');
    expect(url.origin).toBe(process.env.FILES_DOWNLOAD_URL);
    expect([...url.searchParams.keys()]).toEqual(['Expires', 'Signature', 'Key-Pair-Id']);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        [
          'content-disposition',
          'x-content-type-options',
          'content-security-policy',
          'x-frame-options',
          'referrer-policy',
          'cache-control',
        ].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-disposition': `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'private, no-store',
    });
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(PDF_BYTES));
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  });

  it('refuses what CloudFront refuses: a URL past its expiry, a changed expiry or path, an unknown or missing key, a write', async () => {
    const { t, key, url } = await download('a.txt', new TextEncoder().encode('aaa'), 'text/plain');
    const expect403 = async (target: URL | string, code: string, init?: RequestInit) => {
      const res = await fetch(target, init);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(`<Code>${code}</Code>`);
    };
    await expect403(await signedDownloadUrl(key, new Date(Date.now() - 1000)), 'AccessDenied');
    const later = new URL(url);
    later.searchParams.set('Expires', String(Number(url.searchParams.get('Expires')) + 3600));
    await expect403(later, 'AccessDenied');
    const other = await readyFile(t.api, 'b.txt', new TextEncoder().encode('bbb'), 'text/plain');
    await expect403(new URL(`${url.pathname.replace(/[^/]+$/, other._id)}${url.search}`, url), 'AccessDenied');
    const unknown = new URL(url);
    unknown.searchParams.set('Key-Pair-Id', 'KUNKNOWN');
    await expect403(unknown, 'InvalidKey');
    await expect403(new URL(url.pathname, url), 'MissingKey');
    await expect403(url, 'MethodNotAllowed', { method: 'PUT', body: 'x' });
    expect((await fetch(url)).status).toBe(200);
  });

  it('a URL of a deleted file stops working with its bytes: 403, as S3 answers CloudFront for a key it does not have', async () => {
    const { t, file, key, url } = await download('soon-gone.txt', new TextEncoder().encode('soon gone'), 'text/plain');
    expect((await t.api.delete(`${FILES}/${file._id}`)).status).toBe(200);
    await vi.waitFor(async () => expect(await objectExists(key)).toBe(false));
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('only a function granted downloads can read the signing key: without the grant, AccessDeniedException', async () => {
    const { key } = await download('k.txt', new TextEncoder().encode('k'), 'text/plain');
    const sign = (access: Access) =>
      invoke<string>({ handler: 'test/support/fixtures/aws-calls.ts', access }, { kind: 'http' }, { call: 'sign-download', key });
    await expect(sign({ table: 'read', buckets: { [FILES_BUCKET]: ['read'] } })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('is not authorized to perform: ssm:GetParameter'),
    });
    const url = await sign({ table: 'read', buckets: { [FILES_BUCKET]: ['download'] } });
    expect(await (await fetch(url)).text()).toBe('k');
  });
});

describe('verification', () => {
  it('PNG bytes declared as application/pdf are rejected (type_mismatch), with their event, and the bytes deleted', async () => {
    const t = await env.tenant();
    const { id, upload } = await sendUpload(t.api, 'scan.pdf', PNG_BYTES, 'application/pdf');
    const file = await settledFile(t.api, id);
    expect(file).toMatchObject({ status: 'rejected', rejectedReason: 'type_mismatch', download: null });
    await vi.waitFor(async () => expect(await objectExists(upload.fields.key!)).toBe(false));
    expect(await outboxEvents(t.workspaceId, 'inbox.file.rejected')).toHaveLength(1);
    expect(await outboxEvents(t.workspaceId, 'inbox.file.ready')).toHaveLength(0);
    expect((await t.api.get(FILES)).body.data.pagination.total).toBe(0);
  });

  it('bytes that are not UTF-8 text declared text/plain are rejected; a type it does not know is taken as declared', async () => {
    const t = await env.tenant();
    const binary = await sendUpload(t.api, 'a.txt', Uint8Array.from([0xff, 0xfe, 0x00, 0x01]), 'text/plain');
    expect((await settledFile(t.api, binary.id)).rejectedReason).toBe('type_mismatch');
    await readyFile(t.api, 'a.bin', Uint8Array.from([1, 2, 3]), 'application/x-custom');
  });

  it('a bulk job’s CSV landing in the same bucket is no file: the verifier runs for the file only, the import rule for the import’s CSV only', async () => {
    const t = await env.tenant();
    const ruleOf = (name: string) => nameOf(wiring.rules.find((r) => r.name === name)!.target);
    const [verifier, starter] = [ruleOf('verify-upload'), ruleOf('start-import')];
    const seen: Record<string, string[]> = { [verifier]: [], [starter]: [] };
    const stop = onInvoke((name, event) => {
      seen[name]?.push((event as { detail: { object: { key: string } } }).detail.object.key);
      return undefined;
    });
    try {
      const exported = `bulk/exports/${t.workspaceId}~test/${objectId()}.csv`;
      const imported = `bulk/imports/${t.workspaceId}~test/${objectId()}.csv`;
      for (const key of [exported, imported]) {
        await bucketClient().send(new PutObjectCommand({ Bucket: BUCKET(), Key: key, Body: 'name,email\n' }));
      }
      const { id, upload } = await sendUpload(t.api, 'after.txt', new TextEncoder().encode('after'), 'text/plain');
      await settledFile(t.api, id);
      await vi.waitFor(() => expect(seen[starter]).toEqual([imported]));
      expect(seen[verifier]).toEqual([upload.fields.key]);
    } finally {
      stop();
    }
  });

  it('a notification delivered twice, at once and again later, makes the file ready exactly once', async () => {
    const t = await env.tenant();
    const { id, upload } = await sendUpload(t.api, 'twice.txt', new TextEncoder().encode('twice'), 'text/plain');
    const { handler } = await import('../../functions/events/verify-upload');
    const event = {
      version: '0',
      id: 'dup',
      'detail-type': 'Object Created',
      source: 'aws.s3',
      account: '000000000000',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [],
      detail: { bucket: { name: BUCKET() }, object: { key: upload.fields.key } },
    } as const;
    await Promise.all([handler(event as never), handler(event as never)]);
    await settledFile(t.api, id);
    await handler(event as never);
    await vi.waitFor(async () => expect(await outboxEvents(t.workspaceId, 'inbox.file.ready')).toHaveLength(1));
    // The stand-in's own notification has come and gone by now too.
    await new Promise((r) => setTimeout(r, 300));
    expect(await outboxEvents(t.workspaceId, 'inbox.file.ready')).toHaveLength(1);
  });
});

describe('no bytes are left behind', () => {
  const DAY = 24 * 3600 * 1000;

  it('every object lands tagged pending; a ready file’s loses the tag, and the lifecycle rule expires only never-verified ones, a day on', async () => {
    const t = await env.tenant();
    const ready = await readyFile(t.api, 'kept.txt', new TextEncoder().encode('kept'), 'text/plain');
    const readyKey = `${t.workspaceId}~test/${ready._id}`;
    await vi.waitFor(async () => expect(await tagsOf(readyKey)).toEqual({}));

    // Bytes whose verification finds no file (its record expired, its notification lost): nothing will ever settle them.
    const orphan = `${t.workspaceId}~test/${objectId()}`;
    const upload = JSON.parse(
      await invoke<string>(
        { handler: 'test/support/fixtures/aws-calls.ts', access: { table: 'write', buckets: { [FILES_BUCKET]: ['write'] } } },
        { kind: 'http' },
        { call: 'presign-upload', key: orphan, size: 6 },
      ),
    );
    expect((await postForm(upload, new TextEncoder().encode('orphan'))).status).toBe(204);
    expect(await tagsOf(orphan)).toEqual({ 'parley-state': 'pending' });

    expect(await env.stack.expireObjects(new Date())).not.toContain(`${BUCKET()}/${orphan}`);
    const expired = await env.stack.expireObjects(new Date(Date.now() + 2 * DAY));
    expect(expired).toContain(`${BUCKET()}/${orphan}`);
    expect(expired).not.toContain(`${BUCKET()}/${readyKey}`);
    expect(await objectExists(orphan)).toBe(false);
    expect(await objectExists(readyKey)).toBe(true);
  });

  it('a multipart upload keeps the tags and disposition it was created with, from its completion: read back, served, expired', async () => {
    const t = await env.tenant();
    const key = `bulk/exports/${t.workspaceId}~test/${objectId()}.csv`;
    const disposition = 'attachment; filename="parts.csv"';
    const { UploadId } = await bucketClient().send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET(), Key: key, ContentDisposition: disposition, Tagging: 'parley-state=pending' }),
    );
    const { ETag } = await bucketClient().send(
      new UploadPartCommand({ Bucket: BUCKET(), Key: key, UploadId, PartNumber: 1, Body: 'a,b\r\n' }),
    );
    expect(await env.stack.expireObjects(new Date(Date.now() + 2 * DAY))).not.toContain(`${BUCKET()}/${key}`);
    await bucketClient().send(
      new CompleteMultipartUploadCommand({ Bucket: BUCKET(), Key: key, UploadId, MultipartUpload: { Parts: [{ ETag, PartNumber: 1 }] } }),
    );

    expect(await tagsOf(key)).toEqual({ 'parley-state': 'pending' });
    // Another upload to the same key, aborted: the object stays as it was, tags and all.
    const aborted = await bucketClient().send(new CreateMultipartUploadCommand({ Bucket: BUCKET(), Key: key }));
    await bucketClient().send(new AbortMultipartUploadCommand({ Bucket: BUCKET(), Key: key, UploadId: aborted.UploadId }));
    expect(await tagsOf(key)).toEqual({ 'parley-state': 'pending' });
    const url = await getSignedUrl(bucketClient(), new GetObjectCommand({ Bucket: BUCKET(), Key: key }), { expiresIn: 60 });
    const res = await fetch(url);
    expect(await res.text()).toBe('a,b\r\n');
    expect(res.headers.get('content-disposition')).toBe(disposition);
    expect(await env.stack.expireObjects(new Date(Date.now() + 2 * DAY))).toContain(`${BUCKET()}/${key}`);
    expect(await objectExists(key)).toBe(false);
  });

  it('a deleted file’s bytes follow the deletion its record committed, with nothing else run after the commit', async () => {
    const t = await env.tenant();
    const { download: _download, ...file } = await readyFile(t.api, 'gone.txt', new TextEncoder().encode('gone'), 'text/plain');
    const key = `${t.workspaceId}~test/${file._id}`;
    // What DELETE commits, and all it does: the process could die right after it.
    await deleteFileRecord(direct, testTenant(t.workspaceId), file, new Date(), { alone: true });
    await vi.waitFor(async () => expect(await objectExists(key)).toBe(false), { timeout: 10_000 });
    expectError(await t.api.get(`${FILES}/${file._id}`), 404, 'NOT_FOUND');
  });
});

describe('files on messages', () => {
  it('a reply may carry only files; the message, its event and the file all say so', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'photo.png', PNG_BYTES, 'image/png');
    const c = await conversationOf(t.api);
    const res = await t.api.post(`${CONV}/${c._id}/messages`, { content: '', attachments: [{ fileId: file._id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attachment = { fileId: file._id, name: 'photo.png', contentType: 'image/png', size: PNG_BYTES.length };
    expect(res.body.data.message).toMatchObject({ content: null, attachments: [attachment] });
    const [sent] = await outboxEvents(t.workspaceId, 'inbox.message.sent');
    expect((sent!.data.message as { attachments: unknown }).attachments).toEqual([attachment]);
    expect((await t.api.get(`${FILES}/${file._id}`)).body.data.file.conversationId).toBe(c._id);

    const note = await t.api.post(`${CONV}/${c._id}/messages`, { type: 'note', attachments: [{ fileId: file._id }] });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    const other = await conversationOf(t.api);
    const elsewhere = await t.api.post(`${CONV}/${other._id}/messages`, { attachments: [{ fileId: file._id }] });
    expectError(elsewhere, 409, 'CONFLICT');
  });

  it('an incoming message carries files too; a message with neither text nor files is 422', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'receipt.pdf', PDF_BYTES, 'application/pdf');
    const res = await t.api.post('/api/v1/inbox/messages/incoming', {
      channel: 'api',
      customer: { identifier: 'maya-1' },
      attachments: [{ fileId: file._id }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.message.attachments).toEqual([
      { fileId: file._id, name: 'receipt.pdf', contentType: 'application/pdf', size: PDF_BYTES.length },
    ]);
    const c = await conversationOf(t.api);
    const empty = await t.api.post(`${CONV}/${c._id}/messages`, { content: '   ', attachments: [] });
    expectError(empty, 422, 'VALIDATION_ERROR');
  });

  it('a pending file cannot be attached (409), nor can more than 10 files or the same file twice (422)', async () => {
    const t = await env.tenant();
    const c = await conversationOf(t.api);
    const pending = (await t.api.post(FILES, { name: 'a.txt', contentType: 'text/plain', size: 3 })).body.data.file;
    const res = await t.api.post(`${CONV}/${c._id}/messages`, { attachments: [{ fileId: pending._id }] });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual({ fileId: pending._id, status: 'pending' });
    const many = await t.api.post(`${CONV}/${c._id}/messages`, {
      attachments: Array.from({ length: 11 }, () => ({ fileId: pending._id })),
    });
    expectError(many, 422, 'VALIDATION_ERROR');
    const twice = await t.api.post(`${CONV}/${c._id}/messages`, { attachments: [{ fileId: pending._id }, { fileId: pending._id }] });
    expectError(twice, 422, 'VALIDATION_ERROR');
  });

  it('a message stored before files existed answers its link attachments as stored, marked legacy; its conversation still reads', async () => {
    const t = await env.tenant();
    const c = await conversationOf(t.api);
    await t.api.post(`${CONV}/${c._id}/messages`, { content: 'a new reply' });
    // As the table holds it: written before files existed, when attachments were links a client made up.
    const createdAt = new Date(Date.parse(c.createdAt) + 1).toISOString();
    const stored = { _id: objectId(), conversationId: c._id, createdAt };
    const legacy = { url: 'https://files.example.com/terms.pdf', name: 'terms.pdf', size: 0, contentType: 'application/pdf' };
    await dynamo().send(
      new PutCommand({
        TableName: config().TABLE_NAME,
        Item: {
          ...messageKey(testTenant(t.workspaceId), stored),
          ...stored,
          type: 'MESSAGE',
          messageType: 'outgoing',
          private: false,
          content: 'The terms, as a link',
          attachments: [legacy],
          deliveryStatus: 'sent',
          failureReason: null,
          author: { type: 'token', id: 'tok_old' },
          externalId: null,
        },
      }),
    );
    const res = await t.api.get(`${CONV}/${c._id}/messages`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [old, current] = res.body.data.messages;
    expect(old).toMatchObject({ _id: stored._id, content: 'The terms, as a link', attachments: [{ ...legacy, legacy: true }] });
    expect(current).toMatchObject({ content: 'a new reply', attachments: [] });
  });

  it('a held file cannot be deleted alone (409); deleting its conversation deletes it, bytes and record', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'held.txt', new TextEncoder().encode('held'), 'text/plain');
    const c = await conversationOf(t.api);
    await t.api.post(`${CONV}/${c._id}/messages`, { content: 'see attached', attachments: [{ fileId: file._id }] });
    const refused = await t.api.delete(`${FILES}/${file._id}`);
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.details).toEqual({ conversationId: c._id });

    expect((await t.api.delete(`${CONV}/${c._id}`)).status).toBe(200);
    await vi.waitFor(async () => expectError(await t.api.get(`${FILES}/${file._id}`), 404, 'NOT_FOUND'), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await objectExists(`${t.workspaceId}~test/${file._id}`)).toBe(false));
    expect(await outboxEvents(t.workspaceId, 'inbox.file.deleted')).toHaveLength(1);
    expect((await t.api.get(FILES)).body.data.pagination.total).toBe(0);
  });

  it('DELETE answers the file as it was, and its bytes are gone', async () => {
    const t = await env.tenant();
    const file = await readyFile(t.api, 'gone.txt', new TextEncoder().encode('gone'), 'text/plain');
    const res = await t.api.delete(`${FILES}/${file._id}`);
    expect(res.status).toBe(200);
    const { download: _download, ...asStored } = file;
    expect(res.body.data).toEqual({ file: asStored, deleted: true });
    await vi.waitFor(async () => expect(await objectExists(`${t.workspaceId}~test/${file._id}`)).toBe(false));
    expectError(await t.api.get(`${FILES}/${file._id}`), 404, 'NOT_FOUND');
  });
});

describe('isolation', () => {
  it('a file of another workspace, or of the other mode, is 404 everywhere, attachments included', async () => {
    const owner = await env.tenant();
    const file = await readyFile(owner.api, 'private.txt', new TextEncoder().encode('private'), 'text/plain');
    const stranger = await env.tenant();
    const live = await env.liveMode(owner);
    for (const other of [stranger, live]) {
      expectError(await other.api.get(`${FILES}/${file._id}`), 404, 'NOT_FOUND');
      expectError(await other.api.delete(`${FILES}/${file._id}`), 404, 'NOT_FOUND');
      expect((await other.api.get(FILES)).body.data.files).toEqual([]);
      const c = await conversationOf(other.api);
      const attach = await other.api.post(`${CONV}/${c._id}/messages`, { attachments: [{ fileId: file._id }] });
      expectError(attach, 404, 'NOT_FOUND');
      const incoming = await other.api.post('/api/v1/inbox/messages/incoming', {
        channel: 'api',
        customer: { identifier: 'x' },
        attachments: [{ fileId: file._id }],
      });
      expectError(incoming, 404, 'NOT_FOUND');
    }
    expect((await owner.api.get(`${FILES}/${file._id}`)).body.data.file.conversationId).toBeNull();
  });
});

describe('the storage quota', () => {
  it('is a workspace setting; an upload past it is 409 with the usage in details; a ready file counts', async () => {
    const t = await env.tenant();
    const patched = await t.api.patch('/api/v1/workspace', { storageQuotaBytes: 10 });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.workspace.storageQuotaBytes).toBe(10);
    await readyFile(t.api, 'six.txt', new TextEncoder().encode('sixsix'), 'text/plain');
    const over = await t.api.post(FILES, { name: 'five.txt', contentType: 'text/plain', size: 5 });
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.details).toEqual({ quotaBytes: 10, usedBytes: 6, requestedBytes: 5 });
    expect((await t.api.post(FILES, { name: 'four.txt', contentType: 'text/plain', size: 4 })).status).toBe(201);
  });

  it('two uploads that each fit but not together: the second to be verified is rejected as quota_exceeded', async () => {
    const t = await env.tenant();
    await t.api.patch('/api/v1/workspace', { storageQuotaBytes: 8 });
    const a = await t.api.post(FILES, { name: 'a.txt', contentType: 'text/plain', size: 5 });
    const b = await t.api.post(FILES, { name: 'b.txt', contentType: 'text/plain', size: 5 });
    expect((await postForm(a.body.data.upload, new TextEncoder().encode('aaaaa'))).status).toBe(204);
    expect((await settledFile(t.api, a.body.data.file._id)).status).toBe('ready');
    expect((await postForm(b.body.data.upload, new TextEncoder().encode('bbbbb'))).status).toBe(204);
    expect(await settledFile(t.api, b.body.data.file._id)).toMatchObject({ status: 'rejected', rejectedReason: 'quota_exceeded' });
  });
});

describe('the client and the CLI', () => {
  const clientOf = (t: { token: string; workspaceId: string }) =>
    createParleyClient({ baseUrl: env.stack.baseUrl, token: t.token, workspaceId: t.workspaceId });

  it('uploadFile does both steps and resolves with the ready file, from bytes or a stream; a lying file throws', async () => {
    const t = await env.tenant();
    const parley = clientOf(t);
    const file = await uploadFile(parley, 'invoice.pdf', PDF_BYTES, 'application/pdf');
    expect(file).toMatchObject({ name: 'invoice.pdf', status: 'ready', size: PDF_BYTES.length });
    expect(sha256(new Uint8Array(await (await fetch(file.download!.url)).arrayBuffer()))).toBe(sha256(PDF_BYTES));
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(PDF_BYTES.subarray(0, 10));
        controller.enqueue(PDF_BYTES.subarray(10));
        controller.close();
      },
    });
    expect((await uploadFile(parley, 'streamed.pdf', chunks, 'application/pdf')).size).toBe(PDF_BYTES.length);
    const lying = uploadFile(parley, 'scan.pdf', PNG_BYTES, 'application/pdf');
    await expect(lying).rejects.toBeInstanceOf(ParleyFileRejectedError);
    await expect(lying).rejects.toMatchObject({ reason: 'type_mismatch' });
  });

  it('`parley files upload <path>` takes the type from the extension, or refuses to guess', async () => {
    const t = await env.tenant();
    const dir = mkdtempSync(join(tmpdir(), 'parley-files-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'some notes');
      writeFileSync(join(dir, 'blob.unknown'), 'x');
      const session = { api: clientOf(t), workspaceId: t.workspaceId, livemode: false } as Session;
      const file = await uploadPath(session, join(dir, 'notes.txt'), {});
      expect(file).toMatchObject({ name: 'notes.txt', contentType: 'text/plain', status: 'ready' });
      await expect(uploadPath(session, join(dir, 'blob.unknown'), {})).rejects.toThrow(/--type/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a crash between upload and verification', () => {
  it('the stored notification is delivered when the stand-in starts again, and the file becomes ready exactly once', async () => {
    const t = await env.tenant();
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-s3-crash-'));
    const { handler } = await import('../../functions/events/verify-upload');
    const verify = (c: ObjectCreated) =>
      handler({
        'detail-type': 'Object Created',
        source: 'aws.s3',
        detail: { bucket: { name: c.bucket }, object: { key: c.key } },
      } as never);
    const gate = (onObjectCreated: (c: ObjectCreated) => Promise<void>) =>
      startS3Local({
        storeEndpoint: env.stack.sqsEndpoint,
        buckets: [BUCKET()],
        signers: { region: 'us-east-1', principals: (id) => sessionPrincipal(wiring, id) },
        dataDir,
        onObjectCreated,
      });
    try {
      // The first stand-in stores the object, then dies before its notification reaches any rule.
      const dying = await gate(() => new Promise<void>(() => {}));
      const created = await t.api.post(FILES, { name: 'crash.txt', contentType: 'text/plain', size: 5 });
      const { upload, file } = created.body.data;
      const url = new URL(upload.url);
      const sent = await postForm({ ...upload, url: `${dying.endpoint}${url.pathname}` }, new TextEncoder().encode('crash'));
      expect(sent.status).toBe(204);
      await dying.stop();
      expect((await t.api.get(`${FILES}/${file._id}`)).body.data.file.status).toBe('pending');

      // Started again on the same data, it delivers what it owed; a third start owes nothing.
      const delivered: string[] = [];
      const restarted = await gate(async (c) => {
        delivered.push(c.key);
        await verify(c);
      });
      await restarted.stop();
      expect(delivered).toEqual([upload.fields.key]);
      const again = await gate(async (c) => {
        delivered.push(c.key);
        await verify(c);
      });
      await again.stop();
      expect(delivered).toHaveLength(1);
      expect((await settledFile(t.api, file._id)).status).toBe('ready');
      const ready = await outboxEvents(t.workspaceId, 'inbox.file.ready');
      expect(ready.map((e) => (e.data.file as { _id: string })._id)).toEqual([file._id]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
