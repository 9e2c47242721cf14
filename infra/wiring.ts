import { aiWiring } from './wiring/ai';
import { analyticsWiring } from './wiring/analytics';
import { authRoutes } from './wiring/auth';
import { channelsWiring } from './wiring/channels';
import { docsRoutes } from './wiring/docs';
import { contactsRoutes } from './wiring/contacts';
import { crmWiring } from './wiring/crm';
import { inboxWiring } from './wiring/inbox';
import { tagRoutes, tagSchedules } from './wiring/tags';
import { webhooksWiring } from './wiring/webhooks';
import { workflowsWiring } from './wiring/workflows';
import { workspaceWiring } from './wiring/workspace';
import { schedulingWiring } from './wiring/scheduling';
import type { Wiring } from './wiring/types';

/**
 * The one declaration of every route, queue, rule and schedule. The CDK app deploys exactly this and the
 * local runtime runs exactly this. Area modules under `wiring/` contribute their parts.
 */
export const wiring: Wiring = {
  routes: [...docsRoutes, ...authRoutes, ...tagRoutes, ...webhooksWiring.routes, ...inboxWiring.routes, ...contactsRoutes, ...crmWiring.routes, ...workflowsWiring.routes, ...aiWiring.routes, ...analyticsWiring.routes, ...channelsWiring.routes, ...workspaceWiring.routes, ...schedulingWiring.routes],
  fallback: { handler: 'functions/http/not-found.ts', access: { table: 'read' } },
  queues: [...webhooksWiring.queues, ...workflowsWiring.queues, ...channelsWiring.queues],
  rules: [...webhooksWiring.rules, ...workflowsWiring.rules, ...aiWiring.rules, ...analyticsWiring.rules, ...channelsWiring.rules],
  schedules: [...webhooksWiring.schedules, ...inboxWiring.schedules, ...tagSchedules, ...crmWiring.schedules, ...workflowsWiring.schedules, ...channelsWiring.schedules, ...workspaceWiring.schedules, ...schedulingWiring.schedules],
  keys: channelsWiring.keys,
};
