import { at, ids, incomingMessage, viewFixtures } from './fixtures';

/**
 * What an event carries where its entity's fixture as it stands would not fit the event: a closed
 * conversation for `…closed`, a won lead for `crm.lead.won`, and `changes` on the updates that name them.
 */

type Entity = Record<string, unknown>;
const view = (name: string) => viewFixtures[name] as Entity;
const later = '2026-03-10T09:05:00.000Z';

const conversation = (fields: Entity) => ({ conversation: { ...view('Conversation'), ...fields, updatedAt: later } });
const lead = (fields: Entity) => ({ lead: { ...view('Lead'), ...fields, updatedAt: later } });
const campaign = (fields: Entity) => ({ campaign: { ...view('Broadcast'), ...fields } });
const booking = (status: string, fields: Entity = {}) => ({ booking: { ...view('Booking'), status, ...fields } });
const account = (fields: Entity) => ({ account: { ...view('ChannelAccount'), ...fields, updatedAt: later } });
const sent = (deliveryStatus: string, fields: Entity = {}) => ({ message: { ...view('Message'), deliveryStatus, ...fields } });
const failedExecution = {
  ...view('WorkflowExecution'),
  status: 'failed',
  error: { message: 'HTTP 503 from orders.northwind.example', category: 'other', nodeId: 'post', nodeType: 'http_request' },
};

interface EventParts {
  data: Entity;
  changes?: Record<string, [unknown, unknown]>;
}

const EVENTS: Record<string, EventParts> = {
  'inbox.conversation.updated': { data: conversation({}), changes: { subject: ['Late order', 'Order #4521 has not arrived'] } },
  'inbox.conversation.unassigned': { data: conversation({ assigneeId: null }), changes: { assigneeId: [ids.agent, null] } },
  'inbox.conversation.status_changed': { data: conversation({ status: 'pending' }), changes: { status: ['open', 'pending'] } },
  'inbox.conversation.snoozed': {
    data: conversation({ status: 'snoozed', snoozedUntil: at.due }),
    changes: { status: ['open', 'snoozed'] },
  },
  'inbox.conversation.closed': { data: conversation({ status: 'closed' }), changes: { status: ['open', 'closed'] } },
  'inbox.conversation.priority_changed': { data: conversation({ priority: 'urgent' }), changes: { priority: ['high', 'urgent'] } },
  'inbox.message.received': { data: { message: incomingMessage } },
  'customer.contact.blocked': { data: { contact: { ...view('Customer'), blocked: true } } },
  'customer.contact.erased': { data: { contact: { _id: ids.customer } } },
  'auth.token.revoked': { data: { token: { ...view('Token'), revokedAt: later } } },
  'auth.member.invited': { data: { member: { ...view('Member'), status: 'invited', joinedAt: null } } },
  'auth.member.role_changed': { data: { member: { ...view('Member'), role: 'manager' } }, changes: { role: ['agent', 'manager'] } },
  'crm.lead.stage_changed': { data: lead({}), changes: { stageId: [ids.stageNew, ids.stageProposal] } },
  'crm.lead.won': { data: lead({ stageId: ids.stageWon, status: 'won', closedAt: later }) },
  'crm.lead.lost': { data: lead({ stageId: ids.stageLost, status: 'lost', lostReason: 'Chose a local roaster', closedAt: later }) },
  'crm.task.completed': { data: { task: { ...view('Task'), status: 'completed', completedAt: later } } },
  'channel.account.disconnected': { data: account({ status: 'disconnected' }) },
  'channel.account.errored': {
    data: account({ status: 'error', lastError: { reason: 'SMTP login failed: 535 authentication failed', at: later } }),
  },
  'channel.message.status_changed': { data: sent('delivered'), changes: { deliveryStatus: ['sent', 'delivered'] } },
  'channel.message.sent': { data: sent('sent') },
  'channel.message.read': { data: sent('read') },
  'channel.message.failed': { data: sent('failed', { failureReason: 'invalid_recipient' }) },
  'workflow.definition.deactivated': { data: { definition: { ...view('Workflow'), active: false } } },
  'workflow.execution.started': { data: { execution: { ...view('WorkflowExecution'), status: 'running', endedAt: undefined } } },
  'workflow.execution.failed': { data: { execution: failedExecution } },
  'workflow.step.failed': {
    data: {
      execution: failedExecution,
      // The third try of a node under `retry` with `maxAttempts: 2`: no retry left, so nothing handled it.
      step: {
        ...view('WorkflowStep'),
        attempt: 3,
        status: 'failed',
        delayBeforeMs: 60000,
        output: undefined,
        error: { message: 'HTTP 503 from orders.northwind.example', category: 'other' },
      },
    },
  },
  'workflow.execution.cancelled': { data: { execution: { ...view('WorkflowExecution'), status: 'cancelled' } } },
  'broadcast.campaign.scheduled': { data: campaign({ status: 'scheduled', startedAt: null, completedAt: null }) },
  'broadcast.campaign.sending': { data: campaign({ status: 'sending', completedAt: null }) },
  'broadcast.campaign.failed': { data: campaign({ status: 'failed', failureReason: 'Every recipient failed: channel_disconnected' }) },
  'broadcast.campaign.cancelled': { data: campaign({ status: 'cancelled', completedAt: null }) },
  'broadcast.recipient.failed': {
    data: { recipient: { ...view('BroadcastRecipient'), status: 'failed', reason: 'invalid_recipient', sentAt: null } },
  },
  'scheduling.booking.created': { data: booking('pending') },
  'scheduling.booking.cancelled': { data: booking('cancelled', { cancellationReason: 'Café closed for renovation that week' }) },
  'scheduling.booking.completed': { data: booking('completed') },
  'scheduling.booking.no_show': { data: booking('no_show') },
  'scheduling.booking.rescheduled': {
    data: booking('confirmed'),
    changes: { startAt: ['2026-03-12T10:00:00.000Z', at.meeting], endAt: ['2026-03-12T10:30:00.000Z', at.meetingEnd] },
  },
};

/** The envelope every event shares, with this type's `data` (and `changes`) where the fixtures need help. */
export const eventEnvelope = (type: string) => ({
  eventId: ids.event,
  eventType: type,
  workspaceId: ids.workspace,
  livemode: true,
  occurredAt: EVENTS[type] ? later : at.received,
  apiVersion: 'v1',
  ...EVENTS[type],
});
