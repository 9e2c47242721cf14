import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { prebundle } from './constructs/bundling';
import { wiring } from '../functions/wiring';
import { buildParley } from './stacks/parley';
import { stageFrom } from './stage';

/** `cdk synth|deploy [-c stage=dev|prod]`: the whole of Parley, checked by cdk-nag's AWS Solutions rules. */
const app = new App();
// Every handler in one esbuild run up front (unchanged ones come from the bundle cache); the functions then reuse them.
await prebundle(
  [
    ...wiring.routes,
    wiring.fallback,
    ...wiring.queues.map((q) => q.consumer),
    ...wiring.rules.map((r) => r.target),
    ...wiring.schedules.map((s) => s.target),
  ].map((spec) => spec.handler),
);
buildParley(app, {
  stage: stageFrom(app.node),
  wiring,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
