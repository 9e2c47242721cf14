import { consumer } from '../../shared/queues';
import { bulkQueue, type BulkMessage } from '../../shared/bulk/queue';
import { runExport } from '../../shared/exports/exports';
import { runImport } from '../../shared/imports/run';
import { runErasure } from '../../shared/erasure/erasures';
import { direct } from '../../shared/data/unit';

const run = (m: BulkMessage, now: () => Date) => {
  if (m.kind === 'export') return runExport(direct, m, now);
  if (m.kind === 'import') return runImport(direct, m, now);
  return runErasure(direct, m, now);
};

const logged = (m: BulkMessage) => {
  if (m.kind === 'export') return { exportId: m.exportId };
  if (m.kind === 'import') return { importId: m.importId };
  return { erasureId: m.erasureId };
};

/** SQS consumer of the bulk jobs: writes an export's CSV, applies an import's rows, or runs an erasure's steps (partial batch failures: a failed job comes back alone). */
export const handler = consumer(bulkQueue, (m) => run(m, () => new Date()), logged);
