import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullWiring, synth, type Synthesized } from './synth';

const PROD = {
  stage: 'prod',
  alarmEmail: 'ops@example.com',
  domainName: 'api.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
};

/**
 * Unsuppressed AwsSolutions errors and warnings of every stack, from one synthesis (`Annotations.fromStack`
 * re-synthesizes the whole app per stack, which is minutes with cdk-nag on ~50 functions).
 */
const findings = (app: Synthesized) =>
  app.app
    .synth()
    .stacks.flatMap((stack) => stack.messages)
    .filter((m) => (m.level === 'error' || m.level === 'warning') && /AwsSolutions-/.test(String(m.entry.data)))
    .map((m) => `${m.level} ${m.id}: ${String(m.entry.data).split('\n')[0]}`);

describe('cdk-nag AWS Solutions checks', () => {
  let dev: string[];
  let prod: string[];
  beforeAll(() => {
    dev = findings(synth({ nag: true }));
    prod = findings(
      synth({
        nag: true,
        wiring: fullWiring,
        env: { account: '111111111111', region: 'eu-west-1' },
        context: { ...PROD, corsOrigins: 'https://app.example.com' },
      }),
    );
  }, 300_000);

  it('pass for the real wiring in dev, every suppression carrying a reason', () => {
    expect(dev).toEqual([]);
  });

  it('pass in prod with a custom domain, CORS, an alarm e-mail and the edge, for one function of every kind', () => {
    expect(prod).toEqual([]);
  });

  it('pass for a wiring with one of every kind of function', () => {
    expect(findings(synth({ nag: true, wiring: fullWiring }))).toEqual([]);
  });

  it('would report an unsuppressed finding (the check is live)', () => {
    const app = synth({ nag: true, wiring: fullWiring });
    const [role] = app.functions().map((f) => f.role!);
    role!.addManagedPolicy(ManagedPolicy.fromAwsManagedPolicyName('AdministratorAccess'));
    expect(findings(app).some((f) => f.includes('AwsSolutions-IAM4'))).toBe(true);
  });
});
