import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import type { ParleyFunction } from '../../infra/constructs/parley-function';
import type { FunctionSpec, Wiring } from '../../functions/wiring/types';
import { pascal } from '../../infra/stacks/queues-stack';
import { areaOf, MAX_ROUTES_PER_STACK } from '../../infra/stacks/routes-stack';
import { fullWiring, sharedSynth, synth, type Synthesized } from './synth';

type Json = Record<string, unknown>;
type Resources = Record<string, { Type: string; Properties: Json }>;

/** Every way a function is triggered in a template, named by what triggers it. */
const triggersOf = (resources: Resources, fnId: string): string[] => {
  // A trigger refers to the function as `{Fn::GetAtt:[id,'Arn']}` or `{Ref:id}`, however deep.
  const refersTo = (value: unknown, id: string) => {
    const json = JSON.stringify(value);
    return json.includes(`{"Fn::GetAtt":["${id}","Arn"]}`) || json.includes(`{"Ref":"${id}"}`);
  };
  const triggers: string[] = [];
  for (const [id, r] of Object.entries(resources)) {
    const p = r.Properties;
    if (r.Type === 'AWS::ApiGatewayV2::Integration' && refersTo(p.IntegrationUri, fnId)) {
      const routes = Object.values(resources).filter((x) => x.Type === 'AWS::ApiGatewayV2::Route' && refersTo(x.Properties.Target, id));
      triggers.push(...routes.map((route) => `route ${String(route.Properties.RouteKey)}`));
    }
    if (r.Type === 'AWS::Lambda::EventSourceMapping' && refersTo(p.FunctionName, fnId)) triggers.push('event source mapping');
    if (r.Type === 'AWS::Events::Rule' && (p.Targets as Json[]).some((t) => refersTo(t.Arn, fnId))) triggers.push('bus rule');
    if (r.Type === 'AWS::Scheduler::Schedule' && refersTo((p.Target as Json).Arn, fnId)) triggers.push('schedule');
  }
  return triggers;
};

const expectedTrigger = (w: Wiring, spec: FunctionSpec): string => {
  const route = w.routes.find((r) => r === spec);
  if (route) return `route ${route.method} ${route.path}`;
  if (spec === w.fallback) return 'route $default';
  if (w.queues.some((q) => q.consumer === spec)) return 'event source mapping';
  if (w.rules.some((r) => r.target === spec)) return 'bus rule';
  if (w.schedules.some((s) => s.target === spec)) return 'schedule';
  const socketRoute = Object.entries(w.socket ?? {}).find(([, fn]) => fn === spec)?.[0];
  if (socketRoute) return `route $${socketRoute}`;
  throw new Error(`${spec.handler} is not in the wiring`);
};

const declared = (w: Wiring): FunctionSpec[] => [
  ...w.routes,
  w.fallback,
  ...w.queues.map((q) => q.consumer),
  ...w.rules.map((r) => r.target),
  ...w.schedules.map((s) => s.target),
  ...Object.values(w.socket ?? {}),
];

describe.each([
  ['the real wiring', wiring],
  ['a wiring with one of every kind', fullWiring],
])('%s', (_name, w) => {
  let app: Synthesized;
  beforeAll(() => {
    app = sharedSynth(w);
  }, 300_000);

  it('deploys exactly one function per route, fallback, queue consumer, rule target, schedule target and socket route, each with exactly its one trigger', () => {
    const functions = app.functions();
    const specs = declared(w);
    expect(functions).toHaveLength(specs.length);
    const resources = new Map(app.all.map((stack) => [stack, app.template(stack).toJSON().Resources as Resources]));
    for (const spec of specs) {
      const deployed = functions.filter((f: ParleyFunction) => f.spec === spec);
      expect(deployed, spec.handler).toHaveLength(1);
      const fn = deployed[0]!;
      expect(triggersOf(resources.get(fn.stack)!, fn.stack.getLogicalId(fn.node.defaultChild as CfnElement))).toEqual([
        expectedTrigger(w, spec),
      ]);
    }
  });

  it('declares every API route exactly once, and nothing the wiring does not', () => {
    const routeKeys = app.all.flatMap((stack) =>
      Object.values(app.template(stack).findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string),
    );
    const socketKeys = Object.keys(w.socket ?? {}).map((route) => `$${route}`);
    expect(routeKeys.sort()).toEqual([...w.routes.map((r) => `${r.method} ${r.path}`), '$default', ...socketKeys].sort());
  });
});

describe('API areas', () => {
  it('get a stack each, so no stack nears the CloudFormation resource limit', () => {
    const app = sharedSynth(wiring);
    const areas = new Set(wiring.routes.map(areaOf));
    expect(app.stacks.routes.map((s) => s.stackName)).toEqual([...areas].map((a) => `Parley-dev-Api-${pascal(a)}`));
    for (const stack of app.all) expect(Object.keys(app.template(stack).toJSON().Resources ?? {}).length).toBeLessThan(450);
  });

  it('refuse an area with more routes than a stack can hold', () => {
    const route = fullWiring.routes[0]!;
    const routes = Array.from({ length: MAX_ROUTES_PER_STACK + 1 }, (_, i) => ({ ...route, path: `/api/v1/fixtures/r${i}` }));
    expect(() => synth({ wiring: { ...fullWiring, routes } })).toThrow(/at most 45: split the area/);
  });
});
