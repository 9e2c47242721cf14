import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { COUNTED_EVENTS } from '../../shared/domain/analytics/measures';
import { sharedSynth, type Synthesized } from './synth';

/** The AI and analytics infrastructure as the real wiring deploys it. */
let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

const eventTypeFilter = (types: unknown[]) => ({
  source: ['parley.outbox'],
  'detail-type': ['DomainEvent'],
  detail: { dynamodb: { NewImage: { eventType: { S: types } } } },
});
const fn = (handler: string) => app.functions().find((f) => f.spec.handler === handler)!;

describe('the AI and analytics infrastructure', () => {
  it('narrows each consumer rule to the event types it handles', () => {
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley kb-index',
      EventPattern: eventTypeFilter([{ prefix: 'ai.article.' }]),
    });
    workers.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley ai-answer',
      EventPattern: eventTypeFilter(['inbox.message.received']),
    });
    workers.hasResourceProperties('AWS::Events::Rule', {
      Description: 'Parley analytics',
      EventPattern: eventTypeFilter([...COUNTED_EVENTS]),
    });
  });

  it('gives the functions that hold a search index 1,024 MB, and the report routes table reads only', () => {
    for (const handler of ['functions/http/ai/search.ts', 'functions/http/ai/suggest-reply.ts', 'functions/events/ai-answer.ts']) {
      const resource = fn(handler).node.defaultChild as CfnFunction;
      const deployed = app.template(fn(handler).stack).toJSON().Resources[fn(handler).stack.getLogicalId(resource)];
      expect(deployed.Properties.MemorySize, handler).toBe(1024);
    }
    const reports = wiring.routes.filter((r) => r.path.startsWith('/api/v1/analytics/'));
    expect(reports.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['agents', 'conversations', 'overview', 'pipeline', 'webhooks'].map((n) => `GET /api/v1/analytics/${n}`),
    );
    for (const r of reports) expect(r.access).toEqual({ table: 'read' });
  });
});
