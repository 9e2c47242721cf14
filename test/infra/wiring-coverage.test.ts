import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../infra/wiring';
import type { ParleyFunction } from '../../infra/constructs/parley-function';
import type { FunctionSpec, Wiring } from '../../infra/wiring/types';
import { fullWiring, synth, type Synthesized } from './synth';

type Json = Record<string, unknown>;
/** References to a function from a trigger: `{Fn::GetAtt:[id,'Arn']}` or `{Ref:id}`, however deep. */
const refersTo = (value: unknown, id: string): boolean =>
  JSON.stringify(value).includes(`{"Fn::GetAtt":["${id}","Arn"]}`) || JSON.stringify(value).includes(`{"Ref":"${id}"}`);

/** Every way a function is triggered in a template, named by what triggers it. */
const triggersOf = (resources: Record<string, { Type: string; Properties: Json }>, fnId: string): string[] => {
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
  throw new Error(`${spec.handler} is not in the wiring`);
};

const declared = (w: Wiring): FunctionSpec[] => [...w.routes, w.fallback, ...w.queues.map((q) => q.consumer), ...w.rules.map((r) => r.target), ...w.schedules.map((s) => s.target)];

describe.each([
  ['the real wiring', wiring],
  ['a wiring with one of every kind', fullWiring],
])('%s', (_name, w) => {
  let app: Synthesized;
  beforeAll(() => {
    app = synth({ wiring: w });
  });

  it('deploys exactly one function per route, fallback, queue consumer, rule target and schedule target, each with exactly its one trigger', () => {
    const functions = app.functions();
    const specs = declared(w);
    expect(functions).toHaveLength(specs.length);
    for (const spec of specs) {
      const deployed = functions.filter((f: ParleyFunction) => f.spec === spec);
      expect(deployed, spec.handler).toHaveLength(1);
      const fn = deployed[0]!;
      const resources = app.template(fn.stack).toJSON().Resources as Record<string, { Type: string; Properties: Json }>;
      expect(triggersOf(resources, fn.stack.getLogicalId(fn.node.defaultChild as CfnElement))).toEqual([expectedTrigger(w, spec)]);
    }
  });

  it('declares every API route exactly once, and nothing the wiring does not', () => {
    const routeKeys = Object.values(app.template(app.stacks.api).findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    expect(routeKeys.sort()).toEqual([...w.routes.map((r) => `${r.method} ${r.path}`), '$default'].sort());
  });
});
