import { aiWiring } from './wiring/ai';
import { analyticsWiring } from './wiring/analytics';
import { authWiring } from './wiring/auth';
import { channelsWiring } from './wiring/channels';
import { contactsWiring } from './wiring/contacts';
import { crmWiring } from './wiring/crm';
import { docsWiring } from './wiring/docs';
import { bulkWiring } from './wiring/bulk';
import { exportsWiring } from './wiring/exports';
import { erasuresWiring } from './wiring/erasures';
import { importsWiring } from './wiring/imports';
import { filesWiring } from './wiring/files';
import { eventsWiring, realtimeSocket } from './wiring/events';
import { inboxWiring } from './wiring/inbox';
import { schedulingWiring } from './wiring/scheduling';
import { tagsWiring } from './wiring/tags';
import { webhooksWiring } from './wiring/webhooks';
import { workflowsWiring } from './wiring/workflows';
import { workspaceWiring } from './wiring/workspace';
import type { AreaWiring, Wiring } from './wiring/types';

/** Every area's part: `functions/wiring/<area>.ts` exports `<area>Wiring`, its routes, queues, rules, schedules and keys. */
const areas: readonly AreaWiring[] = [
  docsWiring,
  authWiring,
  tagsWiring,
  webhooksWiring,
  inboxWiring,
  filesWiring,
  contactsWiring,
  crmWiring,
  exportsWiring,
  erasuresWiring,
  importsWiring,
  bulkWiring,
  workflowsWiring,
  aiWiring,
  analyticsWiring,
  channelsWiring,
  workspaceWiring,
  schedulingWiring,
  eventsWiring,
];

/**
 * The one declaration of every route, queue, rule and schedule. The CDK app deploys exactly this and the
 * local runtime runs exactly this.
 */
export const wiring: Wiring = {
  routes: areas.flatMap((a) => a.routes ?? []),
  fallback: { handler: 'functions/http/not-found.ts', access: { table: 'read' } },
  queues: areas.flatMap((a) => a.queues ?? []),
  rules: areas.flatMap((a) => a.rules ?? []),
  schedules: areas.flatMap((a) => a.schedules ?? []),
  keys: areas.flatMap((a) => a.keys ?? []),
  buckets: areas.flatMap((a) => a.buckets ?? []),
  socket: realtimeSocket,
};
