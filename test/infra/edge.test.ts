import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RATE_LIMIT } from '../../infra/stacks/edge-stack';
import { docExamples } from '../support/doc-examples';
import { fullWiring, synth, type Synthesized } from './synth';

const DOMAIN = { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:111111111111:certificate/abc' };
const ENV = { account: '111111111111', region: 'eu-west-1' };

const apiOrigin = (app: Synthesized) => app.template(app.stacks.site).findResources('AWS::CloudFront::Distribution');

let prod: Synthesized;
let dev: Synthesized;
beforeAll(() => {
  prod = synth({ wiring: fullWiring, env: ENV, context: { stage: 'prod', ...DOMAIN } });
  dev = synth({ wiring: fullWiring });
}, 300_000);

describe('the edge in prod (on by default)', () => {
  it('is a web ACL of scope CLOUDFRONT in us-east-1 with a per-IP rate-based rule and the AWS IP reputation list', () => {
    expect(prod.stacks.edge!.region).toBe('us-east-1');
    expect(prod.stacks.edge!.stackName).toBe('Parley-prod-Edge');
    const edge = prod.template(prod.stacks.edge!);
    edge.resourceCountIs('AWS::WAFv2::WebACL', 1);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Name: 'RateLimitPerIp',
          Action: { Block: {} },
          Statement: { RateBasedStatement: { Limit: EDGE_RATE_LIMIT, EvaluationWindowSec: 300, AggregateKeyType: 'IP' } },
        }),
        Match.objectLike({
          Name: 'AwsIpReputation',
          OverrideAction: { None: {} },
          Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' } },
        }),
      ],
    });
  });

  it('guards the distribution with that ACL, read across regions, and sends /api/* to the API custom domain', () => {
    expect(prod.stacks.site.region).toBe('eu-west-1');
    const [distribution] = Object.values(apiOrigin(prod)) as { Properties: { DistributionConfig: any } }[];
    const config = distribution!.Properties.DistributionConfig;
    expect(JSON.stringify(config.WebACLId)).toMatch(/ExportsReader/);
    const apiOriginId = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*').TargetOriginId;
    expect(config.Origins.find((o: { Id: string }) => o.Id === apiOriginId)).toMatchObject({
      DomainName: 'api.example.com',
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only' },
    });
    prod.template(prod.stacks.site).hasOutput('ApiUrl', {});
  });

  it('disables the execute-api endpoint, so nothing reaches the API around the WAF but its custom domain', () => {
    const api = prod.template(prod.stacks.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    expect(Object.keys(api.findOutputs('ApiUrl'))).toEqual([]);
  });
});

describe('the edge elsewhere', () => {
  it('is off in dev by default: no ACL, the execute-api endpoint on, CloudFront calling it', () => {
    expect(dev.stacks.edge).toBeUndefined();
    dev.template(dev.stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
    dev
      .template(dev.stacks.site)
      .hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: Match.absent() }) });
  });

  it('can be turned on in dev and off in prod', () => {
    const dev = synth({ wiring: fullWiring, env: ENV, context: { edge: 'true', ...DOMAIN } });
    dev.template(dev.stacks.edge!).resourceCountIs('AWS::WAFv2::WebACL', 1);
    const prod = synth({ wiring: fullWiring, context: { stage: 'prod', edge: 'false' } });
    expect(prod.stacks.edge).toBeUndefined();
    prod.template(prod.stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
  });

  it('refuses to synthesize without the API custom domain CloudFront needs, without a named region, or with an unclear flag', () => {
    expect(() => synth({ wiring: fullWiring, env: ENV, context: { stage: 'prod' } })).toThrow(
      /CloudFront needs the API's custom domain: give -c domainName/,
    );
    expect(() => synth({ wiring: fullWiring, context: { stage: 'prod', ...DOMAIN } })).toThrow(/deploy with an explicit region/);
    expect(() => synth({ wiring: fullWiring, context: { edge: 'yes' } })).toThrow(/edge must be true or false/);
  });
});

/** A CloudFormation value as text: a join's parts joined, anything resolved at deploy time as `resolved`. */
const rendered = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  return join ? join[1].map(rendered).join(join[0]) : 'resolved';
};

/** The `--outputs-file` a deploy of `app` writes: each stack's outputs by name. */
const outputsFile = (app: Synthesized) =>
  Object.fromEntries(
    app.all.map((stack) => [
      stack.stackName,
      Object.fromEntries(
        Object.entries(app.template(stack).toJSON().Outputs ?? {}).map(([key, output]) => [
          key,
          rendered((output as { Value: unknown }).Value),
        ]),
      ),
    ]),
  );

describe("deploy.md's first-token commands", () => {
  const lines = docExamples(resolve(import.meta.dirname, '..', '..'))
    .find((e) => e.file === 'docs/operations/deploy.md' && e.code.includes('API_URL='))!
    .code.split('\n')
    .filter((l) => l.startsWith('export '));

  it.each([
    ['dev', () => dev, () => dev.stacks.api],
    ['prod', () => prod, () => prod.stacks.site],
  ])('find the table and the API URL in the outputs of %s', (_, app, apiStack) => {
    expect(lines.map((l) => l.split('=')[0])).toEqual(['export TABLE_NAME', 'export API_URL']);
    const dir = mkdtempSync(join(tmpdir(), 'parley-deploy-outputs-'));
    const outputs = outputsFile(app());
    writeFileSync(join(dir, 'cdk-outputs.json'), JSON.stringify(outputs));
    const read = execFileSync('bash', ['-c', `set -euo pipefail\n${lines.join('\n')}\necho "$TABLE_NAME|$API_URL"`], {
      cwd: dir,
      encoding: 'utf8',
    });
    rmSync(dir, { recursive: true, force: true });
    const [table, api] = read.trim().split('|');
    expect(table).toBe(outputs[app().stacks.data.stackName]!.TableName);
    expect(api).toBe(outputs[apiStack().stackName]!.ApiUrl);
    expect(api).toMatch(/^https:\/\/.+\/$/);
  });
});
