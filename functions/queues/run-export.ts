import { consumer } from '../../shared/queues';
import { runExport } from '../../shared/exports/exports';
import { exportQueue } from '../../shared/exports/queue';

/** SQS consumer: writes each queued export's CSV to the bucket (partial batch failures: a failed export comes back alone). */
export const handler = consumer(
  exportQueue,
  (m) => runExport(m, () => new Date()),
  (m) => ({ exportId: m.exportId }),
);
