import * as z from 'zod';

/**
 * Every event type Parley emits, `<category>.<entity>.<action>`, with the schema of its `data`.
 * The catalog is data: fan-out, the event-types endpoint and the emitters all read it.
 */
const entity = (name: string) => z.object({ [name]: z.record(z.string(), z.unknown()) });

const family = <E extends string, A extends string>(
  category: string,
  entityName: E,
  actions: readonly A[],
  data: z.ZodType = entity(entityName),
  description = '',
) => actions.map((action) => ({ type: `${category}.${entityName}.${action}`, data, description }) as const);

export const eventCatalog = [
  ...family('inbox', 'conversation', [
    'created', 'updated', 'assigned', 'unassigned', 'status_changed', 'snoozed',
    'closed', 'reopened', 'priority_changed', 'tagged', 'untagged', 'deleted',
  ]),
  ...family('inbox', 'message', ['received', 'sent', 'updated']),
  ...family('inbox', 'note', ['created']),
  ...family('crm', 'lead', ['created', 'updated', 'deleted', 'stage_changed', 'assigned', 'won', 'lost']),
  ...family('crm', 'pipeline', ['created', 'updated', 'deleted']),
  ...family('crm', 'task', ['created', 'updated', 'completed']),
  ...family('crm', 'activity', ['added']),
  ...family('customer', 'contact', ['created', 'updated', 'deleted', 'merged', 'tagged', 'untagged', 'blocked', 'unblocked']),
  ...family('channel', 'account', ['connected', 'disconnected', 'updated', 'errored', 'deleted']),
  ...family('channel', 'message', ['status_changed', 'sent', 'delivered', 'read', 'failed']),
  ...family('workflow', 'definition', ['created', 'updated', 'activated', 'deactivated']),
  ...family('workflow', 'execution', ['started', 'completed', 'failed']),
  ...family('workflow', 'step', ['failed']),
  ...family('auth', 'member', ['invited', 'joined', 'removed', 'role_changed']),
  ...family('auth', 'workspace', ['updated']),
  ...family('auth', 'token', ['created', 'revoked']),
  ...family('broadcast', 'campaign', ['scheduled', 'sending', 'sent', 'failed', 'cancelled']),
  ...family('broadcast', 'recipient', ['delivered', 'failed']),
  ...family('scheduling', 'booking', ['created', 'confirmed', 'rescheduled', 'cancelled', 'completed', 'no_show']),
];

export type EventType = (typeof eventCatalog)[number]['type'];

export const eventTypes: ReadonlySet<string> = new Set(eventCatalog.map((e) => e.type));

export const isEventType = (name: string): name is EventType => eventTypes.has(name);
