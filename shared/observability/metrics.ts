import { config } from '../config';
import { swappable } from './swappable';

/** The CloudWatch namespace of every Parley metric; each also carries the `service` and `stage` dimensions. */
export const METRIC_NAMESPACE = 'Parley';
export const SERVICE = 'parley';

type Unit = 'Count' | 'Milliseconds';

/** Metrics that share one set of dimensions, as one embedded-metric-format line. */
export interface MetricRecord {
  dimensions: Record<string, string>;
  values: { name: string; unit: Unit; value: number }[];
}

type MetricSink = (record: MetricRecord) => void;
const sinks = swappable<MetricSink>();

/** Routes metrics to `next` instead of the function's logs (tests read them); returns the undo. */
export const useMetricSink = sinks.use;

/**
 * On Lambda: one line of CloudWatch's embedded metric format on stdout, which CloudWatch turns into metrics
 * with no API call (what Powertools' Metrics writes, without its 16 KB and its cold-start cost). Elsewhere: nothing.
 */
const emf: MetricSink = ({ dimensions, values }) => {
  const { STAGE, AWS_LAMBDA_FUNCTION_NAME } = config();
  if (!AWS_LAMBDA_FUNCTION_NAME) return;
  const all = { service: SERVICE, stage: STAGE, ...dimensions };
  const line = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: METRIC_NAMESPACE,
          Dimensions: [Object.keys(all)],
          Metrics: values.map(({ name, unit }) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    ...all,
    ...Object.fromEntries(values.map(({ name, value }) => [name, value])),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

const emit = (dimensions: Record<string, string>, values: MetricRecord['values']): void => (sinks.get() ?? emf)({ dimensions, values });
const count = (name: string, dimensions: Record<string, string> = {}) => emit(dimensions, [{ name, unit: 'Count', value: 1 }]);

/** Every metric Parley writes, by name. */
export const metric = {
  request: (route: string, status: number, durationMs: number) =>
    emit({ route, statusClass: `${Math.floor(status / 100)}xx` }, [
      { name: 'Requests', unit: 'Count', value: 1 },
      { name: 'RequestLatency', unit: 'Milliseconds', value: durationMs },
    ]),
  rateLimitRefusal: () => count('RateLimitRefusals'),
  authFailure: () => count('AuthFailures'),
  idempotentReplay: () => count('IdempotentReplays'),
  /** `attempt` past the fast ones is bucketed, so the attempt dimension stays small. */
  deliveryAttempt: (outcome: string, attempt: number, latencyMs: number) =>
    emit({ outcome, attempt: attempt > 8 ? '9+' : String(attempt) }, [
      { name: 'DeliveryAttempts', unit: 'Count', value: 1 },
      { name: 'DeliveryLatency', unit: 'Milliseconds', value: latencyMs },
    ]),
  workflowStep: (outcome: string) => count('WorkflowSteps', { outcome }),
  /** A channel send's outcome: a broadcast's to one recipient, or a conversation reply's. */
  channelSend: (kind: 'reply' | 'broadcast', outcome: 'sent' | 'retrying' | 'failed') =>
    count(kind === 'broadcast' ? 'BroadcastSends' : 'ReplySends', { outcome }),
  /** One run of the retention sweep: what it deleted. */
  retentionSweep: (swept: { conversations: number; messages: number; files: number; indexed: number }) =>
    emit({}, [
      { name: 'RetentionConversationsDeleted', unit: 'Count', value: swept.conversations },
      { name: 'RetentionMessagesDeleted', unit: 'Count', value: swept.messages },
      { name: 'RetentionFilesDeleted', unit: 'Count', value: swept.files },
      { name: 'RetentionConversationsIndexed', unit: 'Count', value: swept.indexed },
    ]),
};
