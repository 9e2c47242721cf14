import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  DomainName,
  HttpApi,
  HttpStage,
  LogGroupLogDestination,
  type CorsPreflightOptions,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ParleyFunction } from '../constructs/parley-function';
import type { FunctionSpec } from '../../functions/wiring/types';
import { stackPlatform, type FunctionStackProps } from './function-stack';

/** One JSON line per request; no headers, so tokens never reach the access log. */
const ACCESS_LOG = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    method: '$context.httpMethod',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    error: '$context.error.message',
  }),
);

/** Why no route has an API Gateway authorizer. */
export const HANDLER_AUTH = {
  id: 'AwsSolutions-APIG4',
  reason:
    'Every route authenticates in its own handler pipeline (Bearer API token, hashed lookup, workspace access, scope); the contract returns its own 401/403 bodies.',
};

const cors = (origins: string[]): CorsPreflightOptions => ({
  allowOrigins: origins,
  allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PATCH, CorsHttpMethod.PUT, CorsHttpMethod.DELETE],
  allowHeaders: ['authorization', 'content-type', 'x-workspace-id'],
  exposeHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
  maxAge: Duration.hours(1),
});

export interface ApiStackProps extends FunctionStackProps {
  fallback: FunctionSpec;
}

/**
 * The public HTTP API: its stage (access logs, throttling, optional domain), the 5xx alarm and `$default` → the
 * fallback function. The routes live in one stack per API area (`RoutesStack`), which keeps every stack well
 * under CloudFormation's 500-resource limit as areas are added.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const platform = stackPlatform(this, props);
    const { stage, alarms } = platform;

    const fallback = new ParleyFunction(this, 'Fallback', {
      spec: props.fallback,
      kind: 'http',
      title: 'HTTP $default (unknown routes)',
      platform,
    });
    this.api = new HttpApi(this, 'Api', {
      apiName: `parley-${stage.name}`,
      description: `Parley public API (${stage.name})`,
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback),
      corsPreflight: stage.corsOrigins?.length ? cors(stage.corsOrigins) : undefined,
      // Behind the edge, only CloudFront (through the custom domain) reaches the API, never the WAF-less default URL.
      disableExecuteApiEndpoint: stage.edge,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    const domainName = stage.domain
      ? new DomainName(this, 'Domain', {
          domainName: stage.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', stage.domain.certificateArn),
        })
      : undefined;
    const httpStage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: stage.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG },
      domainMapping: domainName ? { domainName } : undefined,
    });
    this.url = httpStage.url;
    if (!stage.edge) new CfnOutput(this, 'ApiUrl', { value: this.url, description: 'Base URL of the Parley API' });
    if (domainName) {
      new CfnOutput(this, 'DomainTarget', {
        value: domainName.regionalDomainName,
        description: `Point ${stage.domain!.name} (CNAME/alias) here`,
      });
    }

    alarms.failures('API (any route, or the fallback)');
    const period = Duration.minutes(5);
    alarms.add(
      'Api5xxRate',
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: httpStage.metricServerError({ period, statistic: 'Sum' }),
          requests: httpStage.metricCount({ period, statistic: 'Sum' }),
        },
        period,
        label: '5xx %',
      }),
      {
        description: 'API: 1% or more of requests answered 5xx in 2 of the last 3 five-minute periods.',
        threshold: 1,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      },
    );

    NagSuppressions.addResourceSuppressions(this.api, [HANDLER_AUTH], true);
  }
}
