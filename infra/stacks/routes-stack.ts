import { Stack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ParleyFunction } from '../constructs/parley-function';
import type { HttpRoute as WiringRoute } from '../../functions/wiring/types';
import { HANDLER_AUTH } from './api-stack';
import { stackPlatform, type FunctionStackProps } from './function-stack';
import { pascal } from './queues-stack';

/** About 9 resources per route (function, role, policy, log group, metric filter, integration, route, permission). */
export const MAX_ROUTES_PER_STACK = 45;

/** `/api/v1/integrations/webhooks/{id}` → `integrations`: the stack a route is deployed in. */
export const areaOf = (route: Pick<WiringRoute, 'path'>): string => route.path.split('/').filter(Boolean)[2] ?? 'root';

/** `GET /api/v1/integrations/webhooks/{id}` → `GetIntegrationsWebhooksId`: one stable construct id per route. */
const routeId = (route: Pick<WiringRoute, 'method' | 'path'>): string =>
  pascal(route.method.toLowerCase()) + pascal(route.path.replace(/^\/api\/v1\//, ''));

export interface RoutesStackProps extends FunctionStackProps {
  area: string;
  routes: readonly WiringRoute[];
  api: IHttpApi;
}

/** The routes of one API area, each its own function behind its own route and integration. */
export class RoutesStack extends Stack {
  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, props);
    if (props.routes.length > MAX_ROUTES_PER_STACK) {
      throw new Error(
        `API area "${props.area}" has ${props.routes.length} routes; a stack holds at most ${MAX_ROUTES_PER_STACK}: split the area's paths`,
      );
    }
    // Every route's failures count towards the API stack's one alarm.
    const platform = stackPlatform(this, props, Stack.of(props.api).stackName);
    for (const route of props.routes) {
      const name = routeId(route);
      const fn = new ParleyFunction(this, name, {
        spec: route,
        kind: 'http',
        title: `${route.method} ${route.path}: ${route.summary}`,
        platform,
      });
      const httpRoute = new HttpRoute(this, `${name}Route`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      NagSuppressions.addResourceSuppressions(httpRoute, [HANDLER_AUTH]);
    }
  }
}
