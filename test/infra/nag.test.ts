import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { fullWiring, synth, type Synthesized } from './synth';

const PROD = { stage: 'prod', alarmEmail: 'ops@example.com', domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' };

const findings = (app: Synthesized) =>
  app.all.flatMap((stack) => {
    app.template(stack);
    const annotations = Annotations.fromStack(stack);
    return [
      ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
  });

describe('cdk-nag AWS Solutions checks', () => {
  it('pass for the real wiring in dev, every suppression carrying a reason', () => {
    expect(findings(synth({ nag: true }))).toEqual([]);
  });

  it('pass in prod with a custom domain, CORS and an alarm e-mail', () => {
    expect(findings(synth({ nag: true, context: { ...PROD, corsOrigins: 'https://app.example.com' } }))).toEqual([]);
  });

  it('pass for a wiring with one of every kind of function', () => {
    expect(findings(synth({ nag: true, wiring: fullWiring }))).toEqual([]);
  });

  it('would report an unsuppressed finding (the check is live)', () => {
    const app = synth({ nag: true, wiring: fullWiring });
    const [role] = app.functions().map((f) => f.role!);
    role!.addManagedPolicy({ managedPolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' });
    expect(findings(app).some((f) => f.includes('AwsSolutions-IAM4'))).toBe(true);
  });
});
