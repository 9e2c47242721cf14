import { consumer } from '../../shared/queues';
import { bulkQueue, type BulkMessage } from '../../shared/bulk/queue';
import { direct } from '../../shared/data/unit';

/** Each kind of job's module is loaded at its first job: a cold start pays for none of them (the CSV parser, the stores they touch). */
const run = async (m: BulkMessage, now: () => Date) => {
  if (m.kind === 'export') return (await import('../../shared/exports/run')).runExport(direct, m, now);
  if (m.kind === 'import') return (await import('../../shared/imports/run')).runImport(direct, m, now);
  return (await import('../../shared/erasure/run')).runErasure(direct, m, now);
};

const logged = (m: BulkMessage) => {
  if (m.kind === 'export') return { exportId: m.exportId };
  if (m.kind === 'import') return { importId: m.importId };
  return { erasureId: m.erasureId };
};

/** SQS consumer of the bulk jobs: writes an export's CSV, applies an import's rows, or runs an erasure's steps (partial batch failures: a failed job comes back alone). */
export const handler = consumer(bulkQueue, (m) => run(m, () => new Date()), logged);
