import { randomBytes } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { putObject } from '../../infra/local/s3';
import type { LocalStack } from '../../infra/local/stack';
import { getFile } from '../../shared/data/files';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { postForm } from '../support/files';
import { meterWrites } from './capacity';
import { measureInterleaved, type Section } from './measure';
import { rotatingTokens } from './seed';

/** Sizes and how many uploads of each (fewer of the large ones: each is 25 MiB through one process). */
const SIZES = [
  { label: '1 KiB', bytes: 1024, requests: 30 },
  { label: '1 MiB', bytes: 1024 * 1024, requests: 20 },
  { label: '25 MiB', bytes: 25 * 1024 * 1024, requests: 6 },
];

/**
 * Upload-to-ready: `POST /files`, the multipart POST of the bytes to the S3 stand-in (policy and signature
 * checked, then stored), and the verifier's run on the object-created notification, until the file's record
 * says `ready`; next to a bare PutObject of the same bytes to the stand-in's object store (fauxqs). Also the DynamoDB write units
 * one file costs, by function.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  const total = SIZES.reduce((n, s) => n + s.requests + 2, 0);
  const tokens = await rotatingTokens(workspaceId, ['inbox:write'], total + 10, RATE_LIMITS.write - 5);
  const s3 = new S3Client({
    // The stand-in's object store itself (fauxqs), which the gate stores into.
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const bucket = process.env.FILES_BUCKET!;

  const uploadToReady = async (bytes: Uint8Array) => {
    const res = await fetch(`${stack.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens()}`, 'x-workspace-id': workspaceId, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench.bin', contentType: 'application/octet-stream', size: bytes.length }),
    });
    const { data } = (await res.json()) as { data: { file: { _id: string }; upload: { url: string; fields: Record<string, string> } } };
    if (res.status !== 201) throw new Error(`POST /files answered ${res.status}`);
    const sent = await postForm(data.upload, bytes);
    if (sent.status !== 204) throw new Error(`upload answered ${sent.status}: ${sent.body}`);
    for (;;) {
      const file = await getFile(tenant, data.file._id, new Date());
      if (file?.status === 'ready') return;
      if (file?.status === 'rejected') throw new Error(`rejected: ${file.rejectedReason}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  const rows: (string | number)[][] = [];
  try {
    for (const size of SIZES) {
      const bytes = randomBytes(size.bytes);
      let n = 0;
      const results = await measureInterleaved(
        {
          bare: () => putObject(s3, bucket, `bench/${n++}`, bytes),
          upload: () => uploadToReady(bytes),
        },
        { requests: size.requests, warmup: 1 },
      );
      rows.push(
        [`${size.label}: bare PUT to the object store`, results.bare.p50Ms, results.bare.p99Ms, 1],
        [`${size.label}: upload to ready`, results.upload.p50Ms, results.upload.p99Ms, results.upload.p50Ms / results.bare.p50Ms],
      );
    }
    const units = await meterWrites(() => uploadToReady(randomBytes(1024)));
    const perFunction = [...units].sort(([, a], [, b]) => b - a);
    return [
      {
        title: 'Files: upload to ready (POST /files, presigned POST to the S3 stand-in, verification) vs a bare PUT to the object store',
        columns: ['path', 'p50 ms', 'p99 ms', 'p50 ÷ bare PUT'],
        rows,
        notes: [
          'The upload path adds the API call, the form parsing and policy check of the stand-in, and the verifier (one ranged GET of 4 KiB, one transaction); the bytes are copied once into the store either way.',
        ],
      },
      {
        title: 'Files: DynamoDB write units per file (1 KiB, upload to ready)',
        columns: ['function', 'write units'],
        rows: [...perFunction.map(([name, u]) => [name, u]), ['total', perFunction.reduce((n, [, u]) => n + u, 0)]],
      },
    ];
  } finally {
    s3.destroy();
  }
};
