import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedSynth, type Synthesized } from './synth';

/** The realtime infrastructure as the real wiring deploys it. */
let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

const manageConnections = (statements: { Action: unknown }[]) =>
  statements.filter((s) => [s.Action].flat().includes('execute-api:ManageConnections'));

describe('the realtime infrastructure', () => {
  it('deploys a WebSocket API with $connect, $disconnect and $default (its answer the route response)', () => {
    const realtime = app.template(app.stacks.realtime!);
    realtime.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
    for (const key of ['$connect', '$disconnect', '$default'])
      realtime.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    realtime.hasResourceProperties('AWS::ApiGatewayV2::RouteResponse', { RouteResponseKey: '$default' });
    realtime.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('connectionId') }),
    });
  });

  it('grants ManageConnections to the push function alone, on this API’s sockets only', () => {
    const holders = app.all.flatMap((stack) =>
      Object.entries(app.template(stack).findResources('AWS::IAM::Policy'))
        .filter(([, p]) => manageConnections(p.Properties.PolicyDocument.Statement).length > 0)
        .map(([id, p]) => ({ id, statements: manageConnections(p.Properties.PolicyDocument.Statement) })),
    );
    expect(holders).toHaveLength(1);
    expect(holders[0]!.id).toMatch(/[Rr]ealtime[-_]?[Pp]ush/);
    expect(JSON.stringify(holders[0]!.statements[0])).toMatch(/live\/\*\/@connections\/\*/);
    const push = app.functions().find((f) => f.spec.handler === 'functions/events/realtime-push.ts')!;
    expect(push.kind).toBe('event');
  });

  it('drives the push function by a bus rule on every outbox event and on subscriptions', () => {
    app.template(app.stacks.workers).hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley realtime-push',
      EventPattern: { source: ['parley.outbox', 'parley.realtime'], 'detail-type': ['DomainEvent', 'SocketSubscribed'] },
    });
  });

  it('lets $default put on the bus and gives the ticket route the socket URL', () => {
    const message = app.functions().find((f) => f.spec.handler === 'functions/sockets/message.ts')!;
    expect(message.spec.access).toMatchObject({ bus: true });
    const ticket = app.functions().find((f) => f.spec.handler === 'functions/http/realtime/create-ticket.ts')!;
    const env = app.template(app.stacks.routes.find((s) => s.node.id.endsWith('Realtime'))!).findResources('AWS::Lambda::Function');
    expect(JSON.stringify(env)).toContain('REALTIME_URL');
    expect(ticket.kind).toBe('http');
  });
});
