import { COUNTED_EVENTS } from '../../shared/domain/analytics/measures';
import { outboxPatternOf } from '../../shared/events/from-bus';
import type { EventRule, HttpRoute } from './types';

const base = '/api/v1/analytics';
const read = { table: 'read' } as const;
const report = (name: string, summary: string): HttpRoute => ({ method: 'GET', path: `${base}/${name}`, handler: `functions/http/analytics/${name}.ts`, access: read, summary });

const routes: HttpRoute[] = [
  report('overview', 'Headline figures for a date range'),
  report('conversations', 'Conversation volumes, messages, first response and resolution times, by day or week'),
  report('agents', 'Per-assignee counts and times'),
  report('pipeline', 'Leads created, won and lost, won value and stage conversion'),
  report('webhooks', 'Webhook delivery success rate and latency'),
];

const rules: EventRule[] = [
  {
    name: 'analytics',
    pattern: outboxPatternOf(COUNTED_EVENTS),
    target: { handler: 'functions/events/analytics.ts', access: { table: 'write' }, timeoutSeconds: 30 },
  },
];

export const analyticsWiring = { routes, rules };
