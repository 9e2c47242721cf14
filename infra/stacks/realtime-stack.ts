import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ParleyFunction } from '../constructs/parley-function';
import type { SocketSpec } from '../../functions/wiring/types';
import { stackPlatform, type FunctionStackProps } from './function-stack';

export interface RealtimeStackProps extends FunctionStackProps {
  socket: SocketSpec;
}

/** One JSON line per connection event or message; never the query string, which holds the ticket. */
const ACCESS_LOG = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  eventType: '$context.eventType',
  connectionId: '$context.connectionId',
  status: '$context.status',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
});

/**
 * The realtime WebSocket API (docs/guide/realtime.md): `$connect` redeems a ticket, `$default` answers a client's
 * messages (its answer is the route response) and `$disconnect` forgets the socket. Sockets are pushed to only by
 * the push function (a bus rule target in the workers stack), the one function granted ManageConnections on it.
 * API Gateway bills connection minutes and messages only: an idle API costs nothing.
 */
export class RealtimeStack extends Stack {
  readonly url: string;
  readonly managementEndpoint: string;
  readonly connectionsArn: string;

  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
    const platform = stackPlatform(this, props);
    const { stage } = platform;
    const fn = (name: string, spec: SocketSpec[keyof SocketSpec], title: string) =>
      new WebSocketLambdaIntegration(`${name}Integration`, new ParleyFunction(this, name, { spec, kind: 'http', title, platform }));

    const api = new WebSocketApi(this, 'Api', {
      apiName: `parley-realtime-${stage.name}`,
      description: `Parley realtime events (${stage.name})`,
      connectRouteOptions: { integration: fn('Connect', props.socket.connect, 'WebSocket $connect (redeems a ticket)') },
      disconnectRouteOptions: { integration: fn('Disconnect', props.socket.disconnect, 'WebSocket $disconnect') },
      defaultRouteOptions: {
        integration: fn('Default', props.socket.default, 'WebSocket $default (subscribe, ping)'),
        returnResponse: true,
      },
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    const wsStage = new WebSocketStage(this, 'Stage', { webSocketApi: api, stageName: 'live', autoDeploy: true });
    (wsStage.node.defaultChild as CfnStage).accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: ACCESS_LOG };

    this.url = wsStage.url;
    this.managementEndpoint = wsStage.callbackUrl;
    this.connectionsArn = this.formatArn({ service: 'execute-api', resource: api.apiId, resourceName: 'live/*/@connections/*' });
    new CfnOutput(this, 'RealtimeUrl', { value: this.url, description: 'The realtime WebSocket URL that tickets name' });

    NagSuppressions.addResourceSuppressions(
      api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            '$connect authorises by redeeming a single-use ticket (conditional delete) in its own handler; no token ever travels in the URL.',
        },
      ],
      true,
    );
  }
}
