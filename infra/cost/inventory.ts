import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { wiring } from '../../functions/wiring';
import { buildParley } from '../stacks/parley';
import { stageFrom, type StageName } from '../stage';

type Resource = { Type: string; Properties?: Record<string, unknown> };

/** What a stage's synthesized templates hold that costs money whether or not anyone calls it. */
export interface Inventory {
  stage: StageName;
  functions: number;
  alarms: number;
  alarmMetrics: number;
  keys: number;
  dashboards: number;
  queues: number;
  sqsEventSources: number;
  pipes: number;
  /** Functions every domain event invokes: the targets of bus rules that match any outbox event, whatever its type. */
  targetsPerEvent: number;
  /** Each schedule's runs per month, its function's memory and the share of its runs X-Ray records. */
  schedules: { name: string; runsPerMonth: number; memoryGb: number; traceRate: number }[];
  wafAcls: number;
  wafRules: number;
}

/** The context a stage needs to synthesize (prod puts the API behind the edge, which needs a domain and a region). */
const CONTEXT: Record<StageName, Record<string, string>> = {
  dev: { stage: 'dev' },
  prod: { stage: 'prod', domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/example' },
};

/** A rate's period in minutes: CDK writes whole hours as `rate(1 hour)`. */
const minutesOf = (expression: string): number => {
  const match = /^rate\((\d+) (minute|hour)s?\)$/.exec(expression);
  if (!match) throw new Error(`unpriced schedule expression ${expression}`);
  return Number(match[1]) * (match[2] === 'hour' ? 60 : 1);
};

const globMatches = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(name);

/**
 * Synthesizes a stage as `cdk synth` does and counts its templates. Bundling is skipped (only asset hashes differ),
 * and so is CDK's built-in CloudFormation validation: it only reports, never changes a template, and costs
 * seconds of CPU per stage (`test/infra/cfn-validation.test.ts` runs it on the dev and prod stages).
 */
export const inventoryOf = (stage: StageName): Inventory => {
  const outdir = mkdtempSync(join(tmpdir(), 'parley-cost-'));
  try {
    const app = new App({
      outdir,
      builtinCloudFormationValidation: false,
      context: { ...CONTEXT[stage], 'aws:cdk:bundling-stacks': [] },
    });
    buildParley(app, { stage: stageFrom(app.node), wiring, env: { account: '123456789012', region: 'us-east-1' } });
    const stacks = app
      .synth()
      .stacks.map((s) => ({ name: s.stackName, resources: (s.template as { Resources?: Record<string, Resource> }).Resources ?? {} }));
    const all = stacks.flatMap((s) => Object.values(s.resources));
    const of = (type: string) => all.filter((r) => r.Type === type);
    const samplingRules = of('AWS::XRay::SamplingRule').map(
      (r) => r.Properties!.SamplingRule as { ServiceName: string; FixedRate: number },
    );
    const schedules = stacks.flatMap(({ name: stackName, resources }) =>
      Object.entries(resources)
        .filter(([, r]) => r.Type === 'AWS::Scheduler::Schedule')
        .map(([id, r]) => {
          const target = (r.Properties!.Target as { Arn: { 'Fn::GetAtt': [string, string] } }).Arn['Fn::GetAtt'][0];
          const memoryMb = (resources[target]!.Properties!.MemorySize as number | undefined) ?? 128;
          const rule = samplingRules.find((s) => globMatches(s.ServiceName, `${stackName}-${target}`));
          return {
            name: id,
            runsPerMonth: (30 * 24 * 60) / minutesOf(r.Properties!.ScheduleExpression as string),
            memoryGb: memoryMb / 1024,
            traceRate: rule ? rule.FixedRate : 1,
          };
        }),
    );
    const alarms = of('AWS::CloudWatch::Alarm');
    return {
      stage,
      functions: of('AWS::Lambda::Function').length,
      alarms: alarms.length,
      alarmMetrics: alarms.reduce(
        (n, a) => n + ((a.Properties!.Metrics as { MetricStat?: unknown }[] | undefined)?.filter((m) => m.MetricStat).length ?? 1),
        0,
      ),
      keys: of('AWS::KMS::Key').length,
      dashboards: of('AWS::CloudWatch::Dashboard').length,
      queues: of('AWS::SQS::Queue').length,
      sqsEventSources: of('AWS::Lambda::EventSourceMapping').length,
      pipes: of('AWS::Pipes::Pipe').length,
      targetsPerEvent: of('AWS::Events::Rule')
        .filter((r) => !(r.Properties!.EventPattern as { detail?: unknown }).detail)
        .reduce((n, r) => n + (r.Properties!.Targets as unknown[]).length, 0),
      schedules,
      wafAcls: of('AWS::WAFv2::WebACL').length,
      wafRules: of('AWS::WAFv2::WebACL').reduce((n, a) => n + ((a.Properties!.Rules as unknown[] | undefined)?.length ?? 0), 0),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};
