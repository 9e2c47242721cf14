import { CfnOutput, CustomResource, Duration, Stack } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  type HeadersFrameOption,
  type HeadersReferrerPolicy,
  KeyGroup,
  PriceClass,
  PublicKey,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { DownloadHeaders } from '../../functions/wiring/types';
import type { Stage } from '../stage';
import { functionCode } from './bundling';

/** The custom resource's handler: makes the signing key, keeps its private half in the parameter store, answers the public half. */
const KEY_HANDLER = 'functions/custom-resources/download-signing-key.ts';

export interface PrivateDownloadsProps {
  bucket: IBucket;
  /** The bucket's wiring name (the key's parameter is named after it). */
  name: string;
  headers: DownloadHeaders;
  stage: Stage;
}

/**
 * Downloads of a private bucket's objects through CloudFront, which adds the response headers a presigned S3 GET
 * cannot (`X-Content-Type-Options: nosniff`, a sandboxing Content-Security-Policy, `Content-Disposition:
 * attachment` for an object that carries none). The bucket stays private: CloudFront reads it with origin access
 * control (its bucket policy allows this distribution's `s3:GetObject` and nothing else), and serves a request
 * only with a URL signed by a key of its key group. The key is made at deployment by a custom resource: an RSA
 * 2048 key pair, the private half a SecureString in the parameter store (read by the functions that sign URLs),
 * the public half the key group's. Nothing is cached at the edge: a deleted file is gone at once.
 */
export class PrivateDownloads extends Construct {
  readonly distribution: Distribution;
  /**
   * What a function that signs download URLs is told and granted: where they point (`https://<distribution
   * domain>`), the id CloudFront gave the public key (a URL's `Key-Pair-Id`), and the private key's parameter.
   */
  readonly signing: { url: string; keyPairId: string; keyParameterName: string; keyParameterArn: string };

  constructor(scope: Construct, id: string, props: PrivateDownloadsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const keyParameterName = `/parley/${props.stage.name}/${props.name}/download-signing-key`;
    const keyParameterArn = stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: keyParameterName.slice(1) });

    const logGroup = new LogGroup(this, 'KeyMakerLogs', { retention: props.stage.logRetention, removalPolicy: props.stage.removalPolicy });
    const role = new Role(this, 'KeyMakerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Makes the files download signing key at deployment (parameter store)',
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ssm:GetParameter', 'ssm:PutParameter', 'ssm:DeleteParameter'],
        resources: [keyParameterArn],
      }),
    );
    logGroup.grantWrite(role);
    const keyMaker = new LambdaFunction(this, 'KeyMaker', {
      code: functionCode(this, KEY_HANDLER),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(60),
      description: 'Custom resource: the files download signing key',
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
    });
    const provider = new Provider(this, 'KeyProvider', {
      onEventHandler: keyMaker,
      logGroup: new LogGroup(this, 'KeyProviderLogs', { retention: props.stage.logRetention, removalPolicy: props.stage.removalPolicy }),
    });
    const key = new CustomResource(this, 'SigningKey', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::ParleyDownloadSigningKey',
      properties: { ParameterName: keyParameterName },
    });
    const publicKey = new PublicKey(this, 'PublicKey', {
      encodedKey: key.getAttString('PublicKey'),
      comment: `Parley ${props.stage.name}: signs ${props.name} download URLs`,
    });

    const h = props.headers;
    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: `Parley ${props.stage.name} ${props.name} downloads: never rendered, never sniffed`,
      securityHeadersBehavior: {
        contentTypeOptions: { override: h.noSniff },
        contentSecurityPolicy: { contentSecurityPolicy: h.contentSecurityPolicy, override: true },
        frameOptions: { frameOption: h.frameOptions as HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: h.referrerPolicy as HeadersReferrerPolicy, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: { customHeaders: h.custom.map((c) => ({ ...c })) },
    });
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Parley ${props.stage.name} ${props.name} downloads (signed URLs only)`,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(props.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        responseHeadersPolicy: headers,
        trustedKeyGroups: [
          new KeyGroup(this, 'KeyGroup', { items: [publicKey], comment: `Parley ${props.stage.name} ${props.name} downloads` }),
        ],
      },
    });
    const url = `https://${this.distribution.distributionDomainName}`;
    this.signing = { url, keyPairId: publicKey.publicKeyId, keyParameterName, keyParameterArn };
    new CfnOutput(this, 'DownloadsUrl', { value: url, description: `Where ${props.name} downloads are served (signed URLs only)` });

    NagSuppressions.addResourceSuppressions(
      this.distribution,
      [
        {
          id: 'AwsSolutions-CFR1',
          reason: 'Files are sent to the workspace’s own customers, wherever they are: no geographic restriction applies.',
        },
        {
          id: 'AwsSolutions-CFR2',
          reason: 'Every request needs a URL signed for one object for 5 minutes, issued by a rate-limited, authenticated API call.',
        },
        {
          id: 'AwsSolutions-CFR3',
          reason:
            'Each download URL is issued by an API request, which the API access log records; edge logs would add a bucket and its cost.',
        },
        { id: 'AwsSolutions-CFR4', reason: 'The default *.cloudfront.net certificate; a custom domain sets the minimum TLS version.' },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(
      provider,
      [
        { id: 'AwsSolutions-IAM4', reason: 'CDK Provider framework: its AWS-managed basic execution role.' },
        { id: 'AwsSolutions-IAM5', reason: 'CDK Provider framework: invokes its onEvent function and that function’s versions.' },
        { id: 'AwsSolutions-L1', reason: 'CDK Provider framework: its runtime is chosen by aws-cdk-lib.' },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(keyMaker, [
      {
        id: 'AwsSolutions-L1',
        reason: 'docs/operations/deploy.md pins nodejs22.x (the runtime the project is built and tested for), not the newest Node runtime.',
      },
    ]);
  }
}
