import * as z from 'zod';
import type { ImportJob } from '../domain/imports/import';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

const count = /* @__PURE__ */ built(() => z.number().int().min(0));

export const importJob = /* @__PURE__ */ built(() =>
  exactly<ImportJob>()(
    z.strictObject({
      _id: id,
      kind: z.enum(['customers', 'leads']),
      status: z.enum(['awaiting_upload', 'queued', 'running', 'completed', 'failed']),
      idProperty: z.enum(['email', 'phone']).nullable().describe('Customers: the field a row is matched by'),
      pipelineId: id.nullable().describe('Leads: the pipeline every row’s lead goes into'),
      columns: z
        .record(z.string(), z.string().nullable())
        .describe('CSV header → field (null: the column is skipped); a header not named here names its field'),
      counts: z
        .strictObject({ rows: count, created: count, updated: count, unchanged: count, failed: count })
        .describe('Data rows read so far, and what each became'),
      error: z.string().nullable().describe('Why the whole import failed (the failed rows’ reasons are in `…/errors`)'),
      createdAt: time,
      startedAt: time.nullable(),
      completedAt: time.nullable(),
    }),
  ).meta({ id: 'Import' }),
);

/** A new import and the presigned POST that uploads its CSV (the form fields, then the file as `file`). */
export const importWithUpload = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      import: importJob,
      upload: z.strictObject({
        method: z.literal('POST'),
        url: z.url(),
        fields: z.record(z.string(), z.string()).describe('Send these form fields as they are, then the CSV as the field `file`'),
        expiresAt: time,
        maxBytes: z.number().int().describe('The largest CSV S3 accepts'),
      }),
    })
    .meta({ id: 'ImportUpload' }),
);
