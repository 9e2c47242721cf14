import { Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, MathExpression, Metric, SingleValueWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE } from '../../shared/observability/metrics';

const PERIOD = Duration.minutes(5);

/** The dashboard graph the failure alarms send the reader to. */
export const FUNCTION_FAILURES_GRAPH = 'Function errors and throttles';

/**
 * The stage's operations dashboard: Parley's own metrics, which the functions write as CloudWatch embedded
 * metric format log lines (no API call). Metrics split by a dimension (route, outcome) are drawn with a
 * SEARCH expression, so every route or outcome that occurs appears without being listed here.
 */
export class ParleyDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    const { stage } = props;
    /** Every series of `metric` split by `dimensions` (besides service and stage), as `stat` over the period. */
    const search = (metric: string, dimensions: string[], stat: string, label: string): IMetric =>
      new MathExpression({
        expression: `SEARCH('{${METRIC_NAMESPACE},${[...dimensions, 'service', 'stage'].sort().join(',')}} MetricName="${metric}" stage="${stage}"', '${stat}', ${PERIOD.toSeconds()})`,
        usingMetrics: {},
        label,
        period: PERIOD,
      });
    const total = (metric: string): Metric =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: metric,
        dimensionsMap: { service: SERVICE, stage },
        statistic: 'Sum',
        period: PERIOD,
      });
    const graph = (title: string, metrics: IMetric[]) => new GraphWidget({ title, left: metrics, width: 12, height: 6 });

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `parley-${stage}`, defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      graph('Requests by route and status class', [search('Requests', ['route', 'statusClass'], 'Sum', 'requests')]),
      graph('Request latency by route (p99, ms)', [search('RequestLatency', ['route', 'statusClass'], 'p99', 'p99')]),
    );
    this.dashboard.addWidgets(
      graph('Webhook delivery attempts by outcome and attempt', [search('DeliveryAttempts', ['attempt', 'outcome'], 'Sum', 'attempts')]),
      graph('Webhook delivery latency (p50, p99, ms)', [
        search('DeliveryLatency', ['attempt', 'outcome'], 'p50', 'p50'),
        search('DeliveryLatency', ['attempt', 'outcome'], 'p99', 'p99'),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Workflow steps by outcome', [search('WorkflowSteps', ['outcome'], 'Sum', 'steps')]),
      graph('Channel sends by outcome (broadcasts, replies)', [
        search('BroadcastSends', ['outcome'], 'Sum', 'broadcast'),
        search('ReplySends', ['outcome'], 'Sum', 'reply'),
      ]),
    );
    // Lambda's own metrics by function: the graph that names the function behind a stack's failure alarm.
    const lambda = (metric: string) =>
      new MathExpression({
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metric}" "Parley-${stage}-"', 'Sum', ${PERIOD.toSeconds()})`,
        usingMetrics: {},
        label: metric,
        period: PERIOD,
      });
    this.dashboard.addWidgets(
      new GraphWidget({ title: FUNCTION_FAILURES_GRAPH, left: [lambda('Errors'), lambda('Throttles')], width: 24, height: 6 }),
    );
    this.dashboard.addWidgets(
      new SingleValueWidget({
        title: 'Refusals and replays (5 min)',
        metrics: [total('RateLimitRefusals'), total('AuthFailures'), total('IdempotentReplays')],
        width: 24,
        height: 4,
      }),
    );
  }
}
