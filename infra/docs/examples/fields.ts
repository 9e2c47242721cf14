import { bookingCalendar } from '../../../shared/scheduling/ics';
import { at, bookingView, ids, incomingMessage, viewFixtures } from './fixtures';

/**
 * Values by field name, for the fields no fixture around them holds: request bodies' own fields, and the
 * entities an event carries beside its main one. Same workspace, same ids.
 */

const customer = viewFixtures.Customer as Record<string, unknown>;
const message = viewFixtures.Message as Record<string, unknown>;

/** The entities as the keys an answer or an event names them by, e.g. `data.broadcast` of a deletion. */
const entities = Object.fromEntries(
  Object.entries({
    conversation: 'Conversation',
    message: 'Message',
    lead: 'Lead',
    pipeline: 'Pipeline',
    stage: 'Stage',
    task: 'Task',
    activity: 'Activity',
    tag: 'Tag',
    subscription: 'WebhookSubscription',
    channel: 'ChannelAccount',
    workflow: 'Workflow',
    execution: 'WorkflowExecution',
    article: 'Article',
    broadcast: 'Broadcast',
    booking: 'Booking',
    member: 'Member',
  }).map(([key, view]) => [key, viewFixtures[view]]),
);

export const fieldValues: Record<string, unknown> = {
  ...entities,
  /** An incoming message's sender, as a channel names them. */
  identifier: 'maya.chen@bluebird.example',
  duplicate: false,
  changed: true,
  wildcards: ['*', 'inbox.*', 'crm.lead.*'],
  customerId: ids.customer,
  conversationId: ids.conversation,
  leadId: ids.lead,
  pipelineId: ids.pipeline,
  stageId: ids.stageProposal,
  assigneeId: ids.agent,
  channelId: ids.channel,
  tagIds: [ids.tag],
  workflowId: ids.workflow,
  subscriptionId: ids.subscription,
  articleId: ids.article,
  broadcastId: ids.broadcast,
  eventId: ids.event,
  messageIds: [ids.incoming],
  customerIds: [ids.customer, ids.otherCustomer],
  entityIds: [ids.conversation],
  stageIds: [ids.stageNew, ids.stageProposal, ids.stageWon, ids.stageLost],
  mergedCustomerId: ids.otherCustomer,
  baseId: ids.customer,
  mergeeId: ids.otherCustomer,
  /** A private note: a message of type `note`. */
  note: {
    ...message,
    _id: '66a2035e7d1c4f2a9b3e5d13',
    type: 'note',
    private: true,
    content: 'Called the courier: parcel is at the Utrecht depot.',
    deliveryStatus: null,
    createdAt: at.replied,
  },
  mergedContact: { ...customer, _id: ids.otherCustomer, name: 'Maya C.', email: null, externalId: null, tagIds: [] },
};

/**
 * Request bodies the operation's answer does not describe well enough to draw from: a change sends the
 * fields it changes (to the values its answer shows), an incoming message is the customer's.
 */
export const requests: Record<string, unknown> = {
  'POST /api/v1/contacts/customers/batch': {
    idProperty: 'email',
    inputs: [
      { email: customer.email, name: customer.name, attributes: { plan: 'wholesale' } },
      { email: customer.email, name: 'Maya C.' },
    ],
  },
  'POST /api/v1/inbox/messages/incoming': {
    channel: 'email',
    customer: { identifier: 'maya.chen@bluebird.example', name: 'Maya Chen' },
    externalId: incomingMessage.externalId,
    content: incomingMessage.content,
  },
  'POST /api/v1/channels/{id}/inbound': {
    type: 'message',
    customer: { identifier: 'maya.chen@bluebird.example', name: 'Maya Chen' },
    externalId: 'msg-20260310-0814',
    content: incomingMessage.content,
  },
  'PATCH /api/v1/inbox/conversations/{id}': { priority: 'high' },
  'PATCH /api/v1/tags/{id}': { color: '#2e7d32' },
  'PATCH /api/v1/contacts/customers/{id}': { phone: '+31612345678', attributes: { plan: 'wholesale', city: 'Utrecht', ordersPlaced: 14 } },
  'PATCH /api/v1/crm/pipelines/{id}': { name: 'Wholesale' },
  'POST /api/v1/crm/pipelines/{id}/stages': { name: 'Proposal sent', kind: 'open', probability: 0.5, position: 1 },
  'PATCH /api/v1/crm/pipelines/{id}/stages/{stageId}': { probability: 0.5 },
  'PATCH /api/v1/crm/leads/{id}': { value: { amount: 240000, currency: 'EUR' }, expectedCloseDate: '2026-03-31' },
  'PATCH /api/v1/crm/tasks/{id}': { priority: 'high', dueAt: at.due },
  'PATCH /api/v1/integrations/webhooks/{id}': { events: ['inbox.conversation.*', 'crm.lead.won'] },
  'PATCH /api/v1/ai/knowledge-base/articles/{id}': { published: true },
  'PATCH /api/v1/ai/settings': { autoReply: 'suggest', confidenceThreshold: 0.75 },
  'PATCH /api/v1/channels/{id}': { ratePerSecond: 20 },
  'PATCH /api/v1/broadcasts/{id}': { subject: 'New: Ethiopia Guji' },
  'PATCH /api/v1/workspace/members/{id}': { role: 'agent' },
  'POST /api/v1/workflows/{id}/trigger': { payload: { conversation: { _id: ids.conversation, priority: 'urgent' } } },
  'POST /api/v1/scheduling/bookings/{id}/cancel': { reason: 'Café closed for renovation that week' },
  'POST /api/v1/contacts/customers/imports': {
    idProperty: 'email',
    columns: { 'E-mail': 'email', Company: 'attributes.company', Notes: null },
  },
  'POST /api/v1/crm/leads/imports': { pipelineId: ids.pipeline, columns: { Deal: 'title', Email: 'customerEmail' } },
};

/** Whole answers of the operations whose `data` no view describes, or whose entity the call changed. */
export const answers: Record<string, unknown> = {
  'GET /api/v1/openapi.json': {
    openapi: '3.1.0',
    info: { title: 'Parley API', version: '1.0.0' },
    paths: { '/api/v1/inbox/conversations': { get: { summary: 'List conversations' } } },
  },
  'POST /api/v1/scheduling/bookings/{id}/cancel': {
    success: true,
    data: {
      booking: {
        ...bookingView,
        status: 'cancelled',
        cancellationReason: 'Café closed for renovation that week',
        updatedAt: '2026-03-11T16:40:00.000Z',
      },
    },
  },
};

/** The files an operation answers, by media type, made by the code that makes them. */
export const files: Record<string, string> = {
  'text/calendar': bookingCalendar(bookingView, 1, 'Northwind Coffee'),
  // An import's errors CSV, as `importErrorsCsv` writes it (BOM, header, then line and reason before the row's cells).
  'text/csv':
    '\uFEFFline,reason,E-mail,Name,Company\n4,email: Invalid email address,jane(at)example.com,Jane Doe,Acme\n9,Expected 3 fields, found 2,ada@example.com,Ada\n',
};
