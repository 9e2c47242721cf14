import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Aspects, type Stack, type Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { wiring } from '../../functions/wiring';
import type { Wiring } from '../../functions/wiring/types';
import { ParleyFunction } from '../../infra/constructs/parley-function';
import { buildParley, type ParleyStacks } from '../../infra/stacks/parley';
import { stageFrom } from '../../infra/stage';
import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../shared/events/from-bus';

export interface Synthesized {
  app: App;
  stacks: ParleyStacks;
  all: Stack[];
  template(stack: Stack): Template;
  functions(): ParleyFunction[];
}

/** Every synthesis of this test process writes under one temporary folder, removed when the process exits. */
const scratch = mkdtempSync(join(tmpdir(), 'parley-synth-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
/** A fresh cloud assembly folder under it. */
export const scratchOutdir = (): string => mkdtempSync(join(scratch, 'cdk.out-'));

/** The API's custom domain, and a prod stage with everything it requires (a named account and region, alarm email, CORS origins). */
export const prodDomain = { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' };
export const prodStage = {
  env: { account: '111111111111', region: 'eu-west-1' },
  context: { stage: 'prod', alarmEmail: 'ops@example.com', corsOrigins: 'https://app.example.com', ...prodDomain },
};

/**
 * The Parley app as `cdk synth` builds it, for assertions. Bundling is skipped unless asked for (CDK's own
 * `aws:cdk:bundling-stacks` switch): templates are identical except for asset hashes, and one test bundles for real.
 * So is CDK's built-in CloudFormation validation, which only reports (it never changes a template) and
 * costs about 5 CPU s per test process: `cfn-validation.test.ts` runs it on every stage.
 */
export const synth = (
  opts: { wiring?: Wiring; context?: Record<string, string>; bundle?: boolean; nag?: boolean; validate?: boolean; env?: Environment } = {},
): Synthesized => {
  const app = new App({
    outdir: scratchOutdir(),
    builtinCloudFormationValidation: opts.validate ?? false,
    context: { ...opts.context, ...(opts.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stacks = buildParley(app, { stage: stageFrom(app.node), wiring: opts.wiring ?? wiring, env: opts.env });
  if (opts.nag) Aspects.of(app).add(new AwsSolutionsChecks());
  const templates = new Map<Stack, Template>();
  const { routes, ...single } = stacks;
  const all: Stack[] = [...Object.values(single).filter((s) => s !== undefined), ...routes];
  return {
    app,
    stacks,
    all,
    template: (stack) => templates.get(stack) ?? templates.set(stack, Template.fromStack(stack)).get(stack)!,
    functions: () => all.flatMap((s) => s.node.findAll().filter((c): c is ParleyFunction => c instanceof ParleyFunction)),
  };
};

/**
 * The app of one wiring with the default options, synthesized once per process: the `test/infra` files share
 * their worker processes (the `cdk` project in `vitest.config.ts`), so the files that only read the default
 * templates pay for one synthesis between them. Read it; never add to it.
 */
const shared = new Map<Wiring, Synthesized>();
export const sharedSynth = (w: Wiring = wiring): Synthesized => shared.get(w) ?? shared.set(w, synth({ wiring: w })).get(w)!;

const handler = 'functions/http/not-found.ts';

/**
 * A self-contained wiring with one of everything (a read-only route, a route that enqueues, a queue whose
 * consumer also parks in the DLQ, a bus rule and a schedule), so each kind is proven independently of what
 * the real wiring declares today. Every function is the fallback handler; only the infrastructure matters.
 */
export const fullWiring: Wiring = {
  routes: [
    { method: 'GET', path: '/api/v1/fixtures/{id}', handler, access: { table: 'read' }, summary: 'Read one' },
    {
      method: 'POST',
      path: '/api/v1/fixtures/{id}/retry',
      handler,
      access: { table: 'write', queues: ['deliveries'] },
      summary: 'Enqueue',
    },
  ],
  fallback: wiring.fallback,
  queues: [
    {
      name: 'deliveries',
      urlEnv: 'FIXTURE_QUEUE_URL',
      visibilityTimeoutSeconds: 180,
      retentionDays: 7,
      dlq: { name: 'deliveries-dlq', urlEnv: 'FIXTURE_DLQ_URL', maxReceiveCount: 20 },
      consumer: { handler, access: { table: 'write', queues: ['deliveries-dlq'] }, batchSize: 10, maxConcurrency: 20, timeoutSeconds: 30 },
    },
  ],
  rules: [
    {
      name: 'fanout',
      pattern: { source: [OUTBOX_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE], detail: { eventName: ['INSERT'] } },
      target: { handler, access: { table: 'write', queues: ['deliveries'] } },
    },
  ],
  schedules: [{ name: 'wake-up', everyMinutes: 1, target: { handler, access: { table: 'write' } } }],
  keys: [],
  buckets: [],
};
