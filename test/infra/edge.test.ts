import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RATE_LIMIT } from '../../infra/stacks/edge-stack';
import { fullWiring, synth, type Synthesized } from './synth';

const DOMAIN = { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:111111111111:certificate/abc' };
const ENV = { account: '111111111111', region: 'eu-west-1' };

const apiOrigin = (app: Synthesized) => app.template(app.stacks.site).findResources('AWS::CloudFront::Distribution');

describe('the edge in prod (on by default)', () => {
  let prod: Synthesized;
  beforeAll(() => {
    prod = synth({ wiring: fullWiring, env: ENV, context: { stage: 'prod', ...DOMAIN } });
  }, 300_000);

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
    const dev = synth({ wiring: fullWiring });
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
