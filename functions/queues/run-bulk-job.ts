import { consumer } from '../../shared/queues';
import { bulkQueue } from '../../shared/bulk/queue';
import { runExport } from '../../shared/exports/exports';
import { runImport } from '../../shared/imports/run';

/** SQS consumer of the bulk jobs: writes an export's CSV, or applies an import's rows (partial batch failures: a failed job comes back alone). */
export const handler = consumer(
  bulkQueue,
  (m) => (m.kind === 'export' ? runExport(m, () => new Date()) : runImport(m, () => new Date())),
  (m) => (m.kind === 'export' ? { exportId: m.exportId } : { importId: m.importId }),
);
