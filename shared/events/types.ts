/**
 * Every event type, `<category>.<entity>.<action>`, with a description and the name of its `data` schema
 * (docs/guide/webhooks.md). `available` types are emitted today; `planned` ones belong to areas not built yet: a
 * subscription may name them, and they never fire until their area ships. The schemas themselves are in
 * `catalog.ts`: what validates a subscription's or a trigger's patterns loads only the names, not every view.
 */
export type EventStatus = 'available' | 'planned';

const group = <S extends EventStatus, P extends string, T extends string>(status: S, payload: P, descriptions: Record<T, string>) =>
  (Object.keys(descriptions) as T[]).map((type) => ({ type, status, description: descriptions[type], payload }));

export const eventTypeList = [
  ...group('available', 'conversation', {
    'inbox.conversation.created': 'A conversation was created.',
    'inbox.conversation.updated': 'A conversation’s subject changed (`changes` names the fields).',
    'inbox.conversation.assigned': 'A conversation was assigned to an agent.',
    'inbox.conversation.unassigned': 'A conversation’s assignee was removed.',
    'inbox.conversation.status_changed': 'A conversation’s status changed to pending, or from pending back to open.',
    'inbox.conversation.snoozed': 'A conversation was snoozed, or its wake-up time moved.',
    'inbox.conversation.closed': 'A conversation was closed.',
    'inbox.conversation.reopened':
      'A closed or snoozed conversation was opened again: by an agent, an incoming message or its snooze timer.',
    'inbox.conversation.priority_changed': 'A conversation’s priority changed.',
    'inbox.conversation.deleted': 'A conversation was deleted, with its messages.',
  }),
  ...group('available', 'conversationTags', {
    'inbox.conversation.tagged': 'Tags were attached to a conversation (`tags` lists the ones added).',
    'inbox.conversation.untagged': 'Tags were detached from a conversation (`tags` lists the ones removed).',
  }),
  ...group('available', 'messageConversation', {
    'inbox.message.received': 'A customer’s message arrived in a conversation.',
    'inbox.message.sent': 'An agent or integration replied in a conversation.',
  }),
  ...group('planned', 'messageConversation', {
    'inbox.message.updated': 'A message’s delivery status changed (reported by its channel).',
  }),
  ...group('available', 'note', {
    'inbox.note.created': 'A private note was added to a conversation.',
  }),
  ...group('available', 'file', {
    'inbox.file.ready':
      'An uploaded file was verified (its size and first bytes match what was declared): it can be attached and downloaded.',
    'inbox.file.rejected':
      'An uploaded file failed verification (`file.rejectedReason`: size_mismatch, type_mismatch or quota_exceeded); its bytes were deleted.',
    'inbox.file.deleted': 'A file was deleted: alone (`DELETE /files/{id}`), or with the conversation whose message held it.',
  }),
  ...group('available', 'contact', {
    'customer.contact.created': 'A customer was created.',
    'customer.contact.updated': 'A customer’s fields changed (`changes` names them), e.g. a new channel identity.',
    'customer.contact.deleted': 'A customer was deleted.',
    'customer.contact.blocked': 'A customer was blocked.',
    'customer.contact.unblocked': 'A customer was unblocked.',
  }),
  ...group('available', 'erasedContact', {
    'customer.contact.erased':
      'A customer’s personal data was erased from every copy (`POST /contacts/customers/{id}/erase` completed): `contact` holds its id alone.',
  }),
  ...group('available', 'mergedContact', {
    'customer.contact.merged': 'A customer (`mergedContact`, now deleted) was merged into `contact`.',
  }),
  ...group('available', 'contactTags', {
    'customer.contact.tagged': 'Tags were attached to a customer (`tags` lists the ones added).',
    'customer.contact.untagged': 'Tags were detached from a customer (`tags` lists the ones removed).',
  }),
  ...group('available', 'importJob', {
    'customer.import.started': 'A customers import’s CSV began to be applied (its header was read and accepted, or refused at once).',
    'customer.import.finished':
      'A customers import finished: `import.status` completed (with its counts) or failed (`import.error` says why).',
  }),
  ...group('available', 'workspace', {
    'auth.workspace.updated': 'The workspace’s name, timezone, locale or business hours changed (`changes` names them).',
  }),
  ...group('available', 'token', {
    'auth.token.created': 'An API token bound to this workspace was created (never its value).',
    'auth.token.revoked': 'An API token bound to this workspace was revoked.',
  }),
  ...group('available', 'member', {
    'auth.member.invited': 'A member was invited to the workspace.',
    'auth.member.joined': 'An invited member joined the workspace.',
    'auth.member.removed': 'A member was removed from the workspace.',
    'auth.member.role_changed': 'A member’s role changed.',
  }),
  ...group('available', 'lead', {
    'crm.lead.created': 'A lead was created.',
    'crm.lead.updated': 'A lead’s fields changed (`changes` names them).',
    'crm.lead.deleted': 'A lead was deleted.',
    'crm.lead.stage_changed': 'A lead moved to another stage (`changes.stageId` is [from, to]; also status and closedAt when they change).',
    'crm.lead.assigned': 'A lead’s assignee changed (`changes.assigneeId`; to null when unassigned).',
    'crm.lead.won': 'A lead entered its pipeline’s won stage (after its `stage_changed`).',
    'crm.lead.lost': 'A lead entered its pipeline’s lost stage (after its `stage_changed`).',
  }),
  ...group('available', 'leadTags', {
    'crm.lead.tagged': 'Tags were attached to a lead (`tags` lists the ones added).',
    'crm.lead.untagged': 'Tags were detached from a lead (`tags` lists the ones removed).',
  }),
  ...group('available', 'importJob', {
    'crm.import.started': 'A leads import’s CSV began to be applied (its header was read and accepted, or refused at once).',
    'crm.import.finished': 'A leads import finished: `import.status` completed (with its counts) or failed (`import.error` says why).',
  }),
  ...group('available', 'pipeline', {
    'crm.pipeline.created': 'A pipeline was created.',
    'crm.pipeline.updated':
      'A pipeline was renamed or its stages changed (added, edited, removed or reordered; `changes` names name or stages).',
    'crm.pipeline.deleted': 'An empty pipeline was deleted.',
  }),
  ...group('available', 'task', {
    'crm.task.created': 'A task was created.',
    'crm.task.updated': 'A task’s fields changed (`changes` names them).',
    'crm.task.completed': 'A task was completed.',
    'crm.task.deleted': 'A task was deleted.',
    'crm.task.due': 'An open task reached its due time: sent once per due time, by the task timer.',
  }),
  ...group('available', 'activity', {
    'crm.activity.added':
      'An activity was logged on a lead or customer: through the API, or by Parley for a stage change or a completed task.',
    'crm.activity.deleted': 'An activity added through the API was deleted.',
  }),
  ...group('available', 'account', {
    'channel.account.connected': 'A channel account was created (accounts start connected) or reconnected.',
    'channel.account.disconnected': 'A channel account was disconnected: replies through it fail with `channel_disconnected`.',
    'channel.account.updated':
      'A channel account’s name, rate, config or secrets changed (`changes` names the fields; secret values never appear).',
    'channel.account.errored':
      'A provider refused the account (e.g. an SMTP login, or a 401/403/410 from the api URL): `account.lastError` says why.',
    'channel.account.deleted': 'A channel account was deleted.',
  }),
  ...group('available', 'deliveredMessage', {
    'channel.message.status_changed':
      'An outgoing message’s `deliveryStatus` changed (`changes.deliveryStatus` is `[before, after]`); sent with each of the four below.',
    'channel.message.sent': 'The channel accepted an outgoing message.',
    'channel.message.delivered': 'The channel reported the message delivered.',
    'channel.message.read': 'The channel reported the message read.',
    'channel.message.failed': 'An outgoing message failed for good: `message.failureReason` says why.',
  }),
  ...group('available', 'definition', {
    'workflow.definition.created': 'A workflow was created.',
    'workflow.definition.updated': 'A workflow changed (a new `version`; `changes.version` is `[old, new]`).',
    'workflow.definition.activated': 'A workflow was activated.',
    'workflow.definition.deactivated': 'A workflow was deactivated.',
    'workflow.definition.deleted': 'A workflow was deleted (its executions and versions stay readable).',
  }),
  ...group('available', 'execution', {
    'workflow.execution.started': 'A workflow run started.',
    'workflow.execution.completed': 'A workflow run completed, `completed` or `completed_with_errors` (an on_error node let errors pass).',
    'workflow.execution.failed': 'A workflow run failed.',
    'workflow.execution.cancelled': 'A workflow run was cancelled.',
  }),
  ...group('available', 'stepExecution', {
    'workflow.step.failed': 'A step of a workflow run failed (`step.handledBy` names the container that retried, caught or logged it).',
  }),
  ...group('available', 'article', {
    'ai.article.created': 'A knowledge-base article was created.',
    'ai.article.updated': 'A knowledge-base article changed (`changes` names the fields).',
    'ai.article.deleted': 'A knowledge-base article was deleted.',
  }),
  ...group('available', 'campaign', {
    'broadcast.campaign.scheduled': 'A broadcast was scheduled (or its time moved): `campaign.scheduledAt`.',
    'broadcast.campaign.sending': 'A broadcast started sending: on `send`, or when its scheduled time came.',
    'broadcast.campaign.sent': 'Every recipient of a broadcast has an outcome, and at least one was sent to (or none was left to try).',
    'broadcast.campaign.failed': 'A broadcast ended without reaching any recipient it tried: `campaign.failureReason`.',
    'broadcast.campaign.cancelled': 'A broadcast was cancelled; recipients not yet sent to never are.',
  }),
  ...group('available', 'recipient', {
    'broadcast.recipient.delivered': 'The channel reported a broadcast delivered to a recipient.',
    'broadcast.recipient.failed': 'A broadcast could not be sent to a recipient: `recipient.reason`.',
  }),
  ...group('available', 'bookingReminder', {
    'scheduling.booking.reminder': 'A booking starts in 24 hours or in 1 hour (`reminder`); each is sent once, by timer.',
  }),
  ...group('available', 'booking', {
    'scheduling.booking.created': 'A booking was made.',
    'scheduling.booking.confirmed': 'A booking was confirmed.',
    'scheduling.booking.rescheduled': 'A booking moved to another time.',
    'scheduling.booking.cancelled': 'A booking was cancelled.',
    'scheduling.booking.completed': 'A booked meeting took place.',
    'scheduling.booking.no_show': 'The customer did not show up for a booking.',
  }),
];

/** The name of each `data` schema the catalog declares. */
export type PayloadName = (typeof eventTypeList)[number]['payload'];

/** The types code may emit: emitting a planned type is a type error. */
export type EventType = Extract<(typeof eventTypeList)[number], { status: 'available' }>['type'];

/** Names a subscription's `events` may list. */
export const eventTypes: ReadonlySet<string> = new Set(eventTypeList.map((e) => e.type));

export const isEventType = (name: string): boolean => eventTypes.has(name);

/**
 * A subscription's `events` entry (or an event trigger's `eventTypes` entry): an exact catalog name, `*`,
 * or a prefix wildcard on whole segments such as `inbox.*` or `inbox.conversation.*` that names at least
 * one catalog event.
 */
export const isValidPattern = (pattern: string): boolean => {
  if (pattern === '*') return true;
  if (!pattern.endsWith('.*')) return eventTypes.has(pattern);
  const prefix = pattern.slice(0, -1);
  return [...eventTypes].some((t) => t.startsWith(prefix));
};
