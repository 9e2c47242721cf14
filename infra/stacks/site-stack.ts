import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { dashboardPage, writeSite } from '../site/build';

const DASHBOARD_PAGE = 'dashboard/index.html';

export interface SiteStackProps extends StackProps {
  api: HttpApi;
  /** The realtime WebSocket API's URL, which the dashboard's live feed connects to (its Content-Security-Policy allows it). */
  realtimeUrl?: string;
  /** The WAF in front of the distribution, and the API's custom domain that CloudFront calls once its execute-api endpoint is off. */
  edge?: { webAclArn: string; apiDomain: string };
}

let built: string | undefined;
/** The site, built once per synthesis process into a scratch folder CDK copies as an asset. */
const siteDir = (): string => {
  if (!built) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-site-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    built = writeSite(dir);
  }
  return built;
};

/** `/docs` and `/dashboard` (with or without the trailing slash) are their folders' index.html, as locally. */
const INDEX_REWRITE = `function handler(event) {
  var r = event.request;
  if (/^\\/(docs|dashboard)\\/?$/.test(r.uri)) r.uri = r.uri.replace(/\\/?$/, '/index.html');
  return r;
}`;

/**
 * The reference page and the dashboard as a static site: a private bucket behind CloudFront (origin access
 * control), with `/api/*` passed through to the HTTP API uncached, so the pages call the API on their own
 * origin (no CORS) exactly as they do on the local runtime.
 */
export class SiteStack extends Stack {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, { ...props, crossRegionReferences: props.edge !== undefined });
    const bucket = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });
    const apiDomain = props.edge?.apiDomain ?? Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    this.distribution = new Distribution(this, 'Cdn', {
      comment: 'Parley reference (/docs) and dashboard (/dashboard), API at /api/*',
      webAclId: props.edge?.webAclArn,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'IndexRewrite', { code: FunctionCode.fromInline(INDEX_REWRITE) }),
          },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(apiDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    // The dashboard's page names the socket's URL, known only at deployment: it is deployed with that value in it.
    const sources = props.realtimeUrl
      ? [Source.asset(siteDir(), { exclude: [DASHBOARD_PAGE] }), Source.data(DASHBOARD_PAGE, dashboardPage(props.realtimeUrl))]
      : [Source.asset(siteDir())];
    new BucketDeployment(this, 'Deploy', {
      sources,
      destinationBucket: bucket,
      distribution: this.distribution,
      distributionPaths: ['/docs/*', '/dashboard/*'],
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.distribution.distributionDomainName}/dashboard`,
      description: 'The Parley dashboard',
    });
    if (props.edge)
      new CfnOutput(this, 'ApiUrl', {
        value: `https://${this.distribution.distributionDomainName}/`,
        description: 'Base URL of the Parley API (through the WAF), ending in / as the API stack gives it without the edge',
      });
    new CfnOutput(this, 'DocsUrl', { value: `https://${this.distribution.distributionDomainName}/docs`, description: 'The API reference' });

    NagSuppressions.addStackSuppressions(
      this,
      [
        {
          id: 'AwsSolutions-S1',
          reason: 'The bucket holds public build output only, read solely by CloudFront; the API keeps its own access log.',
        },
        { id: 'AwsSolutions-CFR1', reason: 'Public documentation and an app shell: no geographic restriction applies.' },
        { id: 'AwsSolutions-CFR2', reason: 'Static files; the API behind /api/* rate-limits every token itself (contract § Limits).' },
        { id: 'AwsSolutions-CFR3', reason: 'Static files carry no data; every API request is in the API access log.' },
        { id: 'AwsSolutions-CFR4', reason: 'The default *.cloudfront.net certificate; a custom domain sets the minimum TLS version.' },
        { id: 'AwsSolutions-IAM4', reason: 'CDK BucketDeployment custom resource: its AWS-managed basic execution role.' },
        { id: 'AwsSolutions-IAM5', reason: 'CDK BucketDeployment custom resource: object-level wildcards on this bucket and its asset.' },
        { id: 'AwsSolutions-L1', reason: 'CDK BucketDeployment custom resource: its runtime is chosen by aws-cdk-lib.' },
      ],
      true,
    );
  }
}
