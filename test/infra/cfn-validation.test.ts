import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { prodStage, scratchOutdir, synth } from './synth';

/** The part of the cloud assembly's `validation-report.json` read here. */
interface ValidationReport {
  pluginReports: { pluginName: string; violations: { ruleName: string; description: string }[] }[];
}

/** What CDK's built-in CloudFormation validation (resource schemas and its default rules) found in the app's templates. */
const findings = (app: App): string[] => {
  const report = JSON.parse(readFileSync(join(app.synth().directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) => plugin.violations.map((v) => `${plugin.pluginName} ${v.ruleName}: ${v.description}`));
};

describe("CDK's built-in CloudFormation validation", () => {
  it('finds nothing in the dev stage or the prod stage', () => {
    expect(findings(synth({ validate: true }).app)).toEqual([]);
    const prod = synth({ validate: true, ...prodStage });
    expect(findings(prod.app)).toEqual([]);
    // Two validated syntheses: 31 s on a quiet run, past 120 s in a full run on a loaded machine (a hang bound).
  }, 300_000);

  it('reports a property its resource schema does not have (so the check above can fail)', () => {
    const app = new App({ outdir: scratchOutdir() });
    new CfnResource(new Stack(app, 'Broken'), 'Queue', { type: 'AWS::SQS::Queue', properties: { VisibilityTimeout: 'soon' } });
    expect(findings(app)).toEqual([expect.stringContaining("'soon' is not of type 'integer'")]);
  });
});
