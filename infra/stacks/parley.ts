import { Token, type App, type Environment } from 'aws-cdk-lib';
import { DEFAULT_CROSS_STACK_REFERENCES } from 'aws-cdk-lib/cx-api';
import type { HttpRoute, Wiring } from '../../functions/wiring/types';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { EDGE_REGION, EdgeStack } from './edge-stack';
import { EventsStack } from './events-stack';
import { ObservabilityStack } from './observability-stack';
import { pascal, QueuesStack } from './queues-stack';
import { RealtimeStack } from './realtime-stack';
import { areaOf, RoutesStack } from './routes-stack';
import { SiteStack } from './site-stack';
import type { Stage } from '../stage';
import { WorkersStack } from './workers-stack';

export interface ParleyStacks {
  observability: ObservabilityStack;
  data: DataStack;
  events: EventsStack;
  queues: QueuesStack;
  api: ApiStack;
  /** One per API area (`/api/v1/<area>/…`), in order of first appearance in the wiring. */
  routes: RoutesStack[];
  workers: WorkersStack;
  /** The realtime WebSocket API, when the wiring declares one. */
  realtime?: RealtimeStack;
  /** The reference page and the dashboard behind CloudFront, with the API on the same origin. */
  site: SiteStack;
  /** The WAF web ACL in us-east-1, when the stage puts the API behind the edge. */
  edge?: EdgeStack;
}

/**
 * Deploys exactly what the wiring declares, split by concern: alarm topic, table, outbox pipe and bus,
 * queues, the HTTP API, its routes by area, the workers (queue consumers, rules, schedules) and the static site.
 * Stack names carry the stage.
 */
/** The edge stack's environment: the app's account in us-east-1; cross-region references need both regions named. */
const edgeEnv = (env: Environment | undefined): Environment => {
  if (!env?.region || Token.isUnresolved(env.region)) {
    throw new Error(
      `the edge's web ACL lives in ${EDGE_REGION} and the site refers to it across regions: deploy with an explicit region (CDK_DEFAULT_REGION), or -c edge=false`,
    );
  }
  return { account: env.account, region: EDGE_REGION };
};

export const buildParley = (app: App, opts: { stage: Stage; wiring: Wiring; env?: Environment }): ParleyStacks => {
  const { stage, wiring, env } = opts;
  // Classic exports/imports between the stacks (CloudFormation protects a producer while it is imported).
  app.node.setContext(DEFAULT_CROSS_STACK_REFERENCES, 'strong');
  const prefix = `Parley-${stage.name}`;
  const common = { env, tags: { project: 'parley', stage: stage.name } };
  const observability = new ObservabilityStack(app, `${prefix}-Observability`, { ...common, stage });
  const alarmTopic = observability.alarmTopic;
  const data = new DataStack(app, `${prefix}-Data`, { ...common, stage, keys: wiring.keys, buckets: wiring.buckets });
  const events = new EventsStack(app, `${prefix}-Events`, { ...common, stage, table: data.table, alarmTopic });
  const queues = new QueuesStack(app, `${prefix}-Queues`, { ...common, stage, queues: wiring.queues, alarmTopic });
  const base = {
    stage,
    table: data.table,
    busName: events.bus.eventBusName,
    queues: queues.queues,
    keys: data.keys,
    buckets: data.buckets,
  };
  const realtime = wiring.socket
    ? new RealtimeStack(app, `${prefix}-Realtime`, { ...common, socket: wiring.socket, platform: base, alarmTopic })
    : undefined;
  const platform = {
    ...base,
    ...(realtime
      ? { realtime: { url: realtime.url, managementEndpoint: realtime.managementEndpoint, connectionsArn: realtime.connectionsArn } }
      : {}),
  };
  const api = new ApiStack(app, `${prefix}-Api`, { ...common, fallback: wiring.fallback, platform, alarmTopic });
  const areas = new Map<string, HttpRoute[]>();
  for (const route of wiring.routes) areas.set(areaOf(route), [...(areas.get(areaOf(route)) ?? []), route]);
  const routes = [...areas].map(
    ([area, areaRoutes]) =>
      new RoutesStack(app, `${prefix}-Api-${pascal(area)}`, { ...common, area, routes: areaRoutes, api: api.api, platform, alarmTopic }),
  );
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    ...common,
    rules: wiring.rules,
    schedules: wiring.schedules,
    bus: events.bus,
    platform,
    alarmTopic,
  });
  const edge = stage.edge ? new EdgeStack(app, `${prefix}-Edge`, { ...common, env: edgeEnv(env), stage }) : undefined;
  const site = new SiteStack(app, `${prefix}-Site`, {
    ...common,
    api: api.api,
    realtimeUrl: realtime?.url,
    edge: edge && { webAclArn: edge.webAclArn, apiDomain: stage.domain!.name },
  });
  return { observability, data, events, queues, api, routes, workers, realtime, site, edge };
};
