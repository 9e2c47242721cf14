import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ObservabilityStack } from '../../infra/stacks/observability-stack';
import { stageFrom } from '../../infra/stage';

/** The dashboard body as deployed: CloudFormation joins it from parts (the region); the parts are enough here. */
const bodyOf = (template: Template): string => {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as { Properties: { DashboardBody: unknown } }[];
  return JSON.stringify(dashboard!.Properties.DashboardBody);
};

describe('the operations dashboard', () => {
  for (const stage of ['dev', 'prod']) {
    // Synthesis on a loaded 2-core machine took 103 s in a full run (the first test also loads aws-cdk-lib): a hang bound.
    it(`exists once for the ${stage} stage, named after it, and draws every Parley metric of that stage only`, { timeout: 180_000 }, () => {
      const app = new App({ context: { stage, edge: 'false' } });
      const template = Template.fromStack(new ObservabilityStack(app, 'Obs', { stage: stageFrom(app.node) }));
      template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: `parley-${stage}` });
      const body = bodyOf(template);
      for (const metric of [
        'Requests',
        'RequestLatency',
        'DeliveryAttempts',
        'DeliveryLatency',
        'WorkflowSteps',
        'BroadcastSends',
        'ReplySends',
      ]) {
        expect(body).toContain(`MetricName=\\\\\\"${metric}\\\\\\" stage=\\\\\\"${stage}\\\\\\"`);
      }
      for (const metric of ['RateLimitRefusals', 'AuthFailures', 'IdempotentReplays'])
        expect(body).toContain(`\\"Parley\\",\\"${metric}\\",\\"service\\",\\"parley\\",\\"stage\\",\\"${stage}\\"`);
      expect(body).toContain('{Parley,route,service,stage,statusClass}');
    });
  }
});
