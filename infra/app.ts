import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { wiring } from './wiring';
import { buildParley } from './stacks/parley';
import { stageFrom } from './stacks/stage';

/** `cdk synth|deploy [-c stage=dev|prod]`: the whole of Parley, checked by cdk-nag's AWS Solutions rules. */
const app = new App();
buildParley(app, {
  stage: stageFrom(app.node),
  wiring,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
