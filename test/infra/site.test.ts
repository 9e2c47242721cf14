import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, dashboardPage, siteKey } from '../../infra/site/build';
import { sharedSynth, type Synthesized } from './synth';

let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

/** The managed CachingDisabled policy (aws-cdk-lib `CachePolicy.CACHING_DISABLED`). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

describe('the static site (reference page and dashboard)', () => {
  it('is a private, encrypted, TLS-only bucket read by CloudFront through origin access control', () => {
    const site = app.template(app.stacks.site);
    site.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    site.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    site.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
  });

  it('serves the files over HTTPS, rewrites /docs and /dashboard to their index, and passes /api/* to the API uncached', () => {
    const site = app.template(app.stacks.site);
    site.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
        CacheBehaviors: [
          Match.objectLike({
            PathPattern: '/api/*',
            ViewerProtocolPolicy: 'https-only',
            CachePolicyId: CACHING_DISABLED,
            AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
          }),
        ],
        Origins: Match.arrayWith([Match.objectLike({ CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }) })]),
      }),
    });
    site.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: Match.stringLikeRegexp('index\\.html') });
    site.hasOutput('DashboardUrl', {});
    site.hasOutput('DocsUrl', {});
  });

  it("deploys the built site and invalidates its paths, with no function but the deployment's own", () => {
    const site = app.template(app.stacks.site);
    site.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/docs/*', '/dashboard/*'] });
    const fns = Object.values(site.findResources('AWS::Lambda::Function')) as { Properties: { Handler: string } }[];
    expect(fns.map((f) => f.Properties.Handler)).toEqual(['index.handler']);
    expect(Object.keys(site.findResources('AWS::Lambda::Function'))[0]).toMatch(/^CustomCDKBucketDeployment/);
  });

  it("deploys the dashboard's page with the realtime socket's URL as the only other place it may connect to", () => {
    const site = app.template(app.stacks.site);
    const [deployment] = Object.values(site.findResources('Custom::CDKBucketDeployment')) as {
      Properties: { SourceObjectKeys: unknown[]; SourceMarkers: Record<string, unknown>[] };
    }[];
    expect(deployment!.Properties.SourceObjectKeys).toHaveLength(2);
    const markers = JSON.stringify(deployment!.Properties.SourceMarkers);
    expect(markers).toMatch(/Realtime/);
    expect(dashboardPage('wss://socket.example/live')).toContain("default-src 'self'; connect-src 'self' wss://socket.example/live;");
    expect(dashboardPage()).not.toContain('connect-src');
  });

  it('is the reference page with its renderer bundled, and the dashboard bundle', () => {
    const site = buildSite();
    expect([...site.keys()].sort()).toEqual([
      'dashboard/app.css',
      'dashboard/app.js',
      'dashboard/index.html',
      'docs/index.html',
      'docs/redoc.standalone.js',
      'favicon.ico',
    ]);
    expect(site.get('docs/index.html')!.body.toString()).not.toMatch(/https?:\/\//);
    expect(site.get('dashboard/app.js')!.body.length).toBeLessThan(64 * 1024);
    expect([siteKey('/docs'), siteKey('/docs/'), siteKey('/dashboard/app.js'), siteKey('/api/v1/tags'), siteKey('/favicon.ico')]).toEqual([
      'docs/index.html',
      'docs/index.html',
      'dashboard/app.js',
      undefined,
      'favicon.ico',
    ]);
  });
});
