import * as z from 'zod';
import type { ExportJob } from '../domain/exports/export';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const exportJob = /* @__PURE__ */ built(() =>
  exactly<ExportJob>()(
    z.strictObject({
      _id: id,
      kind: z.enum(['customers', 'leads']),
      status: z.enum(['queued', 'running', 'completed', 'failed']),
      filter: z.record(z.string(), z.string()).describe('The list filters the export selects by, as given'),
      rows: z.number().int().min(0).describe('Rows written (the header excluded); 0 until completed'),
      error: z.string().nullable(),
      createdAt: time,
      completedAt: time.nullable(),
    }),
  ).meta({ id: 'Export' }),
);

/** An export as the API answers it: once completed, a download of its CSV valid 5 minutes (always an attachment). */
export const exportWithDownload = /* @__PURE__ */ built(() =>
  exportJob.extend({ download: z.strictObject({ url: z.url(), expiresAt: time }).nullable() }).meta({ id: 'ExportWithDownload' }),
);
