import { COUNTED_EVENTS } from '../../shared/domain/analytics/measures';
import { outboxPatternOf } from '../../shared/events/from-bus';
import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const base = '/api/v1/analytics';
const route = areaRoutes('analytics');
/** Each report is `GET /api/v1/analytics/<name>`, answered by `functions/http/analytics/<name>.ts`. */
const report = (name: string, summary: string) => route('GET', `${base}/${name}`, name, summary);

export const analyticsWiring = {
  routes: [
    report('overview', 'Headline figures for a date range'),
    report('conversations', 'Conversation volumes, messages, first response and resolution times, by day or week'),
    report('agents', 'Per-assignee counts and times'),
    report('pipeline', 'Leads created, won and lost, won value and stage conversion'),
    report('webhooks', 'Webhook delivery success rate and latency'),
  ],
  rules: [
    {
      name: 'analytics',
      pattern: outboxPatternOf(COUNTED_EVENTS),
      target: { handler: 'functions/events/analytics.ts', access: { table: 'write' }, timeoutSeconds: 30 },
    },
  ],
} satisfies AreaWiring;
